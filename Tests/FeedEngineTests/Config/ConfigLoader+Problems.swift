import FeedEngine

extension ConfigLoader {
    /// Every problem loading `yaml` reports, as printed (`feeds.yaml:LINE:COLUMN: ...`); empty
    /// when it loads.
    func problems(_ yaml: String) -> [String] {
        do {
            _ = try load(yaml: yaml, path: "feeds.yaml", directory: "/tmp")
            return []
        } catch let error as ConfigError {
            return error.problems.map(\.description)
        } catch {
            return ["unexpected: \(error)"]
        }
    }
}

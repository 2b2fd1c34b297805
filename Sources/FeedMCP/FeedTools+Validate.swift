import FeedEngine
import FeedKit

extension FeedTools {
    /// What `validate_config` answers.
    struct Validation: Encodable {
        struct Problem: Encodable {
            var line: Int
            var column: Int
            var message: String
        }

        var valid: Bool
        var feeds: Int?
        var enabled: Int?
        var problems: [Problem]
        /// The changes the config's next pass would make to the server's store (`schema --plan`).
        var storeChanges: [String]?
    }

    /// `validate_config`: `yaml` loaded as `feedwork validate` loads a file, with relative paths
    /// from the served config's folder and no `${VAR}` read from the server's environment (each
    /// is `***`), so no value of the server's leaves in an answer. Nothing is written.
    func validate(_ yaml: String) async -> String {
        let loader = ConfigLoader(registry: registry, environment: [:], unsetVariables: .placeholder)
        let checked: FeedsConfig
        do {
            checked = try loader.load(yaml: yaml, path: "feeds.yaml", directory: config.directory)
        } catch let error as ConfigError {
            return JSONText.line(
                Validation(
                    valid: false,
                    problems: error.problems.map {
                        .init(line: $0.location.line, column: $0.location.column, message: $0.message)
                    }))
        } catch {
            return JSONText.line(
                Validation(valid: false, problems: [.init(line: 1, column: 1, message: String(describing: error))]))
        }
        var changes: [String]?
        if (try? config.storeExists()) == true, let stored = try? await config.storedEntities() {
            changes = SchemaPlan.changes(
                declared: checked.declaredEntities.map(\.schema), stored: stored.schemas, retired: stored.retired
            ).map(\.description)
        }
        return JSONText.line(
            Validation(
                valid: true, feeds: checked.feeds.count, enabled: checked.feeds.filter(\.enabled).count, problems: [],
                storeChanges: changes))
    }
}

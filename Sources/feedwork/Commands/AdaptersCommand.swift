import ArgumentParser
import FeedEngine
import FeedFixtures
import FeedKit

/// `feedwork adapters`: what each built-in adapter takes and writes.
struct AdaptersCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "adapters",
        abstract: "List the built-in adapters with their options and entities.")

    @Flag(help: "Print the adapters as JSON (an array, one object per adapter) on stdout.")
    var json = false

    /// One adapter as `--json` prints it.
    struct Report: Encodable {
        struct Option: Encodable {
            var name: String
            var type: String
            var summary: String
            /// `nil` for a required option.
            @NullWhenAbsent var `default`: String?
            var required: Bool
        }

        var name: String
        var summary: String
        var options: [Option]
        /// Empty for the json adapter, whose entities are declared in feeds.yaml.
        var entities: [SchemaReport]
    }

    func run() {
        let descriptions = BuiltinAdapters.registry.descriptions
        if json {
            let reports = descriptions.map { adapter in
                Report(
                    name: adapter.name, summary: adapter.summary,
                    options: adapter.options.map {
                        Report.Option(
                            name: $0.name, type: $0.type, summary: $0.summary, default: $0.defaultValue,
                            required: $0.defaultValue == nil)
                    },
                    entities: adapter.entities.map { SchemaReport(schema: $0, feeds: []) })
            }
            Console.print(JSONText.encode(reports))
            return
        }
        var sections: [String] = []
        for adapter in descriptions {
            var lines = ["\(adapter.name): \(adapter.summary)", "  options:"]
            for option in adapter.options {
                let requirement = option.defaultValue.map { "default \($0)" } ?? "required"
                lines.append("    \(option.name) (\(option.type), \(requirement)): \(option.summary)")
            }
            if adapter.entities.isEmpty {
                lines.append("  entities: declared by each feed (in its YAML, or by its source as it runs)")
            } else {
                lines.append("  entities:")
                for entity in adapter.entities {
                    let columns = entity.columns.map { "\($0.name) \($0.type.rawValue)" }.joined(separator: ", ")
                    lines.append("    \(entity.name) (key: \(entity.key.joined(separator: ", "))): \(columns)")
                }
            }
            sections.append(lines.joined(separator: "\n"))
        }
        Console.print(sections.joined(separator: "\n\n"))
    }
}

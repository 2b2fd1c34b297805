import ArgumentParser
import FeedEngine
import FeedFixtures
import FeedKit

/// `feedwork adapters`: what each registered adapter takes and writes, and the module it comes from.
struct AdaptersCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "adapters",
        abstract: "List the adapters with their modules, options and entities.")

    @Flag(help: "Print the adapters as JSON (FeedKit's version and one object per adapter) on stdout.")
    var json = false

    /// What `--json` prints: FeedKit's version and the adapters.
    struct Document: Encodable {
        /// The version of FeedKit, the SDK the adapters are built against (`FeedSDK.version`).
        var feedkitVersion: String
        var adapters: [Report]
    }

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
        /// The module that defines the adapter's type (`FruitFeed`, or a package's own).
        var module: String
        var summary: String
        var options: [Option]
        /// Empty for the json adapter, whose entities are declared in feeds.yaml.
        var entities: [SchemaReport]
    }

    func run() {
        let registry = RegisteredAdapters.registry
        let adapters = zip(registry.descriptions, registry.provenances)
        if json {
            let reports = adapters.map { adapter, provenance in
                Report(
                    name: adapter.name, module: provenance.module, summary: adapter.summary,
                    options: adapter.options.map {
                        Report.Option(
                            name: $0.name, type: $0.type, summary: $0.summary, default: $0.defaultValue,
                            required: $0.defaultValue == nil)
                    },
                    entities: adapter.entities.map { SchemaReport(schema: $0, feeds: []) })
            }
            Console.print(JSONText.encode(Document(feedkitVersion: FeedSDK.version, adapters: reports)))
            return
        }
        var sections: [String] = []
        for (adapter, provenance) in adapters {
            var lines = ["\(adapter.name) (\(provenance.module)): \(adapter.summary)", "  options:"]
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

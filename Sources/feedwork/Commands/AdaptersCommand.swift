import ArgumentParser
import FeedEngine
import FeedFixtures
import FeedKit

/// `feedwork adapters`: what each built-in adapter takes and writes.
struct AdaptersCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "adapters",
        abstract: "List the built-in adapters with their options and entities.")

    func run() {
        var sections: [String] = []
        for adapter in BuiltinAdapters.registry.descriptions {
            var lines = ["\(adapter.name): \(adapter.summary)", "  options:"]
            for option in adapter.options {
                let requirement = option.defaultValue.map { "default \($0)" } ?? "required"
                lines.append("    \(option.name) (\(option.type), \(requirement)): \(option.summary)")
            }
            if adapter.entities.isEmpty {
                lines.append("  entities: declared in the feed's YAML")
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

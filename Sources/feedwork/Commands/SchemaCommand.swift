import ArgumentParser
import FeedEngine
import FeedKit

/// `feedwork schema`: the tables a config's feeds write, from the config alone (no store needed).
struct SchemaCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schema",
        abstract: "Show the entities the config's feeds write: columns, types, keys, relations and writers.",
        discussion: """
            Read from feeds.yaml and the adapters, so it works before the first run, for \
            built-in adapters and for entities declared in YAML with the json adapter alike. \
            Each entity table also has the system columns listed; child tables \
            (<entity>__<list>) hold the items of nested lists.

            Examples:
              feedwork schema
              feedwork schema classified
              feedwork schema item --json
            """)

    @OptionGroup var options: ConfigOptions

    @Argument(help: "Only this entity.", completion: Completions.entities)
    var entity: String?

    @Flag(help: "Print the schema as JSON (an array of entities) on stdout.")
    var json = false

    func run() throws {
        var entities = try options.load(unsetVariables: .placeholder).declaredEntities
        if let entity {
            let names = entities.map(\.schema.name)
            entities = entities.filter { $0.schema.name == entity }
            guard !entities.isEmpty else {
                throw CommandFailure.usage(
                    "no entity '\(entity)' in the config; its entities: \(names.joined(separator: ", "))")
            }
        }
        let reports = entities.map(SchemaReport.init)
        Console.print(json ? JSONText.encode(reports) : reports.map(\.text).joined(separator: "\n\n"))
    }
}

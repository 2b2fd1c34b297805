import ArgumentParser
import FeedEngine
import FeedKit

/// `feedwork schema`: the tables a config's feeds write, from the config alone (no store needed).
struct SchemaCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schema",
        abstract: "Show the entities the config's feeds write: columns, types, keys, relations and writers.",
        discussion: """
            Read from feeds.yaml and the adapters, so it works before the first run, for \
            built-in adapters and for entities declared in YAML with the json adapter alike. \
            When the store exists, it also shows the columns marked retired (no longer \
            declared, kept with their values), and an entity that `extra: columns` declares \
            during each pass with the columns the store has, those found in the records marked. \
            Each entity table also has the system columns listed; child tables \
            (<entity>__<list>) hold the items of nested lists.

            With --plan, compares the config with the store instead and prints what the next \
            pass would change, changing nothing: new entities and columns, columns whose type \
            is converted in place, and columns the config no longer declares (kept, NULL in new \
            rows); a conversion the stored values would refuse is followed by the error the pass \
            would fail with. A pass applies these changes in its own transaction, so one that \
            fails (a stored value that does not convert) leaves the store as it was.

            Examples:
              feedwork schema
              feedwork schema classified
              feedwork schema item --json
              feedwork schema --plan
            """)

    @OptionGroup var options: ConfigOptions

    @Argument(help: "Only this entity.", completion: Completions.entities)
    var entity: String?

    @Flag(help: "Print the schema as JSON (an array of entities) on stdout.")
    var json = false

    @Flag(help: "Print the changes the next pass would make to the store (with --json, an array of them).")
    var plan = false

    func run() async throws {
        let config = try options.loadToRead()
        var entities = config.declaredEntities
        var duringPass = config.entitiesDeclaredDuringPass
        if let entity {
            let names = (entities + duringPass).map(\.schema.name)
            entities = entities.filter { $0.schema.name == entity }
            duringPass = duringPass.filter { $0.schema.name == entity }
            guard !entities.isEmpty || !duringPass.isEmpty else {
                throw CommandFailure.usage(
                    "no entity '\(entity)' in the config; its entities: \(names.joined(separator: ", "))")
            }
        }
        if plan {
            // One opening of the store for its schemas, retired columns and the refusals.
            let store = try config.storeExists() ? try config.readingStore() : nil
            var stored: [String: EntitySchema] = [:]
            var retired: [String: [RetiredColumn]] = [:]
            if let store {
                stored = try await store.schemas()
                retired = try await RetiredColumn.marks(in: store)
            }
            var planned: [PlannedChange] = []
            let changes = SchemaPlan.changes(declared: entities.map(\.schema), stored: stored, retired: retired)
            for change in changes {
                var refusal: String?
                if let store { refusal = try await SchemaPlan.refusal(of: change, in: store) }
                planned.append(PlannedChange(change, refusal: refusal))
            }
            Console.print(
                json
                    ? JSONText.encode(planned)
                    : planned.isEmpty
                        ? "no change: the store matches the config" : planned.map(\.lines).joined(separator: "\n"))
            return
        }
        // The store, when there is one, tells the columns found during passes and those retired;
        // without one (or a server out of reach), the config alone.
        let store = (try? config.storeExists()) == true ? await StoredEntities(config) : nil
        let reports =
            entities.map { SchemaReport($0, retired: store?.retired[$0.schema.name]) }
            + duringPass.map { declared in
                var report = SchemaReport(duringPass: declared, stored: store?.schemas[declared.schema.name])
                report.add(retired: store?.retired[declared.schema.name])
                return report
            }
        Console.print(json ? JSONText.encode(reports) : reports.map(\.text).joined(separator: "\n\n"))
    }
}

/// What `feedwork schema` reads from an existing store: its schemas and retired columns
/// (empty when it cannot be read).
private struct StoredEntities {
    var schemas: [String: EntitySchema]
    var retired: [String: [RetiredColumn]]

    init(_ config: FeedsConfig) async {
        let stored = try? await config.storedEntities()
        schemas = stored?.schemas ?? [:]
        retired = stored?.retired ?? [:]
    }
}

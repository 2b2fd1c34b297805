import Foundation
import Testing

/// `feedwork schema --plan` shows what the next pass would change, and `feedwork drop` removes
/// an entity, on a real store through the real command.
@Suite("feedwork schema --plan and drop")
struct SchemaPlanDropCommandTests {
    let directory: URL

    init() throws {
        directory = try FeedworkProcess.makeFolder("plan")
        try Data(#"{"items":[{"id":1,"price":12},{"id":2,"price":7}]}"#.utf8)
            .write(to: directory.appendingPathComponent("items.json"))
        try config(fields: "{ id: int, price: int }")
    }

    func config(fields: String) throws {
        let yaml = """
            feeds:
              - { name: shop, adapter: json, url: items.json, records: items, entity: item, key: id, fields: \(fields) }
            """
        try Data(yaml.utf8).write(to: directory.appendingPathComponent("feeds.yaml"))
    }

    /// `feedwork` with stdin from /dev/null, as from a script.
    func run(_ arguments: [String]) async throws -> FeedworkProcess.Result {
        try await FeedworkProcess.run(
            arguments, in: directory, launcher: ["/bin/sh", "-c", #"exec "$0" "$@" < /dev/null"#])
    }

    @Test func thePlanListsTheChangesAndDropRemovesTheEntity() async throws {
        await #expect(
            try run(["schema", "--plan"]).stdout == "item: create the entity (2 columns, its table and view)\n")
        await #expect(try run(["run"]).status == 0)
        await #expect(try run(["schema", "--plan"]).stdout == "no change: the store matches the config\n")
        try config(fields: "{ id: int, price: decimal, name: string }")
        let plan = try await run(["schema", "--plan"])
        #expect(plan.status == 0, "\(plan.stderr)")
        #expect(
            plan.stdout == """
                item: convert column 'price' from integer to decimal in place
                item: column 'name' added (text), filled by re-map

                """)
        let validate = try await run(["validate"])
        #expect(validate.status == 0, "\(validate.stderr)")
        #expect(
            validate.stdout.hasSuffix(
                """
                the next pass changes the store (see feedwork schema --plan):
                  item: convert column 'price' from integer to decimal in place
                  item: column 'name' added (text), filled by re-map

                """), "\(validate.stdout)")
        try config(fields: "{ id: int, price: timestamp }")
        let refused = try await run(["schema", "--plan"])
        #expect(
            refused.stdout == """
                item: convert column 'price' from integer to timestamp in place, only if the column holds no value
                  the next pass would fail: column 'price' of 'item' cannot change from integer to timestamp in place: \
                map the field to a new column name (the old column is kept) or use a new entity name; nothing was changed

                """, "\(refused.stdout)")
        try config(fields: "{ id: int, price: decimal, name: string }")
        let json = try await run(["schema", "--plan", "--json"])
        let changes = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        #expect(changes.map { $0["change"] as? String } == ["convert", "add"])
        #expect(changes.first?["from"] as? String == "integer")
        #expect(changes.first?["refusal"] is NSNull)

        let unconfirmed = try await run(["drop", "item"])
        #expect(unconfirmed.status == 2)
        #expect(unconfirmed.stderr.contains("stdin is not a terminal: add --yes to drop without a confirmation"))
        let unknown = try await run(["drop", "itme", "--yes"])
        #expect(unknown.status == 1)
        #expect(unknown.stderr.contains("no entity 'itme' in the store; its entities: item"))
        let dropped = try await run(["drop", "item", "--yes"])
        #expect(dropped.status == 0, "\(dropped.stderr)")
        #expect(dropped.stdout.hasPrefix("dropped entity 'item': its table (2 rows) and view"))
        await #expect(
            try run(["schema", "--plan"]).stdout == "item: create the entity (3 columns, its table and view)\n")
    }
}

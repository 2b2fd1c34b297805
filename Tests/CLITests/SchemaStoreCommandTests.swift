import FeedTestSupport
import Foundation
import Testing

/// `feedwork schema` with a store: the entity that `extra: columns` declares during each pass
/// is listed with the columns the store found, and columns no longer declared are shown
/// retired, on each store through the real command.
@Suite("feedwork schema: columns found during passes and retired ones")
struct SchemaStoreCommandTests {
    /// A folder whose config stores on `driver` (a new schema of the test server on PostgreSQL)
    /// and has two feeds: `shop` (`extra: columns`, entity `item`) and `plain` (entity `other`,
    /// with `otherFields`).
    static func write(_ directory: URL, store: String, otherFields: String) throws {
        let yaml = """
            \(store)feeds:
              - { name: shop, adapter: json, url: items.json, records: items, entity: item, key: id, extra: columns, fields: { id: int } }
              - { name: plain, adapter: json, url: items.json, records: items, entity: other, key: id, fields: \(otherFields) }
            """
        try Data(yaml.utf8).write(to: directory.appendingPathComponent("feeds.yaml"))
    }

    @Test(arguments: HarnessStore.available)
    func schemaListsFoundColumnsAndRetiredOnes(driver: HarnessStore) async throws {
        let directory = try FeedworkProcess.makeFolder("schema-store")
        var store = ""
        if driver == .postgres {
            guard let (url, schema) = PostgresStoreCommandTests.server() else { return }
            store = "store: \"\(url)\"\nschema: \(schema)\n"
        }
        defer {
            if driver == .postgres, let url = HarnessStore.postgresURL,
                let schema = store.split(separator: "\n").last?.dropFirst("schema: ".count)
            {
                _ = try? PostgresStoreCommandTests.psql(url, "DROP SCHEMA \(schema) CASCADE")
            }
        }
        try Data(#"{"items":[{"id":1,"name":"a","rating":4.5},{"id":2,"name":"b"}]}"#.utf8)
            .write(to: directory.appendingPathComponent("items.json"))
        try Self.write(directory, store: store, otherFields: "{ id: int, name: string }")

        let before = try await FeedworkProcess.run(["schema", "item"], in: directory)
        #expect(before.status == 0, "\(before.stderr)")
        #expect(
            before.stdout.contains("declared during each pass (extra: columns): no columns found in the records yet"),
            "\(before.stdout)")

        let run = try await FeedworkProcess.run(["run"], in: directory)
        #expect(run.status == 0, "\(run.stderr)")
        let after = try await FeedworkProcess.run(["schema", "item"], in: directory)
        #expect(after.status == 0, "\(after.stderr)")
        #expect(after.stdout.contains("columns marked found were found in the records"), "\(after.stdout)")
        #expect(after.stdout.contains("rating (found)"), "\(after.stdout)")
        #expect(after.stdout.contains("name (found)"), "\(after.stdout)")
        let json = try await FeedworkProcess.run(["schema", "item", "--json"], in: directory)
        let entities = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        let columns = try #require(entities.first?["columns"] as? [[String: Any]])
        #expect(columns.map { $0["name"] as? String } == ["id", "name", "rating"])
        #expect(columns.map { $0["found"] as? Bool } == [false, true, true])
        #expect(entities.first?["declared_during_pass"] as? Bool == true)

        try Self.write(directory, store: store, otherFields: "{ id: int }")
        #expect(try await FeedworkProcess.run(["run"], in: directory).status == 0)
        let retired = try await FeedworkProcess.run(["schema", "other"], in: directory)
        #expect(retired.status == 0, "\(retired.stderr)")
        #expect(retired.stdout.contains("name (retired)"), "\(retired.stdout)")
        #expect(retired.stdout.contains("no longer declared since 20"), "\(retired.stdout)")
        let retiredJSON = try await FeedworkProcess.run(["schema", "other", "--json"], in: directory)
        let other = try #require(
            try JSONSerialization.jsonObject(with: Data(retiredJSON.stdout.utf8)) as? [[String: Any]])
        let marks = try #require(other.first?["retired"] as? [[String: Any]])
        #expect(marks.map { $0["name"] as? String } == ["name"])
        #expect(marks.first?["type"] as? String == "text")

        let dropped = try await FeedworkProcess.run(["drop", "other", "--column", "name", "--yes"], in: directory)
        #expect(dropped.status == 0, "\(dropped.stderr)")
        await #expect(try !FeedworkProcess.run(["schema", "other"], in: directory).stdout.contains("(retired)"))
    }
}

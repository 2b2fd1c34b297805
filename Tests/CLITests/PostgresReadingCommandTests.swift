import FeedTestSupport
import Foundation
import Testing

/// The reading commands (`list`, `export`, `runs`, `rejects`, `price`) on a PostgreSQL store
/// create and migrate nothing: a role that may only read the schema can use them, and a schema
/// that holds no store yet is reported, not made.
@Suite("feedwork reading a PostgreSQL store")
struct PostgresReadingCommandTests {
    let directory: URL

    init() throws {
        directory = try FeedworkProcess.makeFolder("postgres-reading")
        try FileManager.default.copyItem(
            at: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
                .appendingPathComponent("../../Adapters/Fruit/Fixtures/data.json").standardizedFileURL,
            to: directory.appendingPathComponent("data.json"))
    }

    func useStore(_ url: String, schema: String) throws {
        let yaml = "store: \"\(url)\"\nschema: \(schema)\nfeeds:\n  - { name: fruit, adapter: fruit, url: data.json }\n"
        try Data(yaml.utf8).write(to: directory.appendingPathComponent("feeds.yaml"))
    }

    @Test func aRoleThatMayOnlyReadTheSchemaListsExportsAndShowsRuns() async throws {
        guard let (url, schema) = PostgresStoreCommandTests.server() else { return }
        let reader = "reader_" + schema
        defer {
            _ = try? PostgresStoreCommandTests.psql(url, "DROP SCHEMA \(schema) CASCADE")
            _ = try? PostgresStoreCommandTests.psql(url, "DROP ROLE \(reader)")
        }
        try useStore(url, schema: schema)
        #expect(try await FeedworkProcess.run(["run"], in: directory).status == 0)
        let grants = [
            "CREATE ROLE \(reader) LOGIN", "GRANT USAGE ON SCHEMA \(schema) TO \(reader)",
            "GRANT SELECT ON ALL TABLES IN SCHEMA \(schema) TO \(reader)",
        ]
        for grant in grants { _ = try PostgresStoreCommandTests.psql(url, grant) }
        let readerURL = url.replacingOccurrences(of: "://postgres@", with: "://\(reader)@")
        #expect(readerURL != url, "the test server's URL names the user postgres: \(url)")
        try useStore(readerURL, schema: schema)
        for command in [["list"], ["export", "fruit"], ["runs"], ["rejects"]] {
            let result = try await FeedworkProcess.run(command, in: directory)
            #expect(result.status == 0, "\(command): \(result.stderr)")
        }
        #expect(try await FeedworkProcess.run(["export", "fruit"], in: directory).stdout.contains(#""type":"apple""#))
        let run = try await FeedworkProcess.run(["run"], in: directory)
        #expect(run.status != 0, "a reader cannot write a pass")
        #expect((run.stdout + run.stderr).contains("permission denied"), "\(run.stdout)\(run.stderr)")
    }

    @Test func readingASchemaThatHoldsNoStoreSaysSoAndCreatesNothing() async throws {
        guard let (url, schema) = PostgresStoreCommandTests.server() else { return }
        defer { _ = try? PostgresStoreCommandTests.psql(url, "DROP SCHEMA IF EXISTS \(schema) CASCADE") }
        try useStore(url, schema: schema)
        let export = try await FeedworkProcess.run(["export", "fruit"], in: directory)
        #expect(export.status == 1)
        #expect(export.stderr.contains("no Feedwork store in schema '\(schema)' yet; run `feedwork run` first"))
        let list = try await FeedworkProcess.run(["list"], in: directory)
        #expect(list.status == 0, "\(list.stderr)")
        #expect(list.stdout.contains("never"), "\(list.stdout)")
        let schemas = try PostgresStoreCommandTests.psql(
            url, "SELECT count(*) FROM pg_namespace WHERE nspname = '\(schema)'")
        #expect(schemas == "0", "no schema was created")
    }
}

import FeedTestSupport
import Foundation
import Testing

/// Commands on a config whose store is PostgreSQL.
@Suite("feedwork with a PostgreSQL store")
struct PostgresStoreCommandTests {
    let directory: URL

    init() throws {
        directory = try FeedworkProcess.makeFolder("postgres-store")
        let yaml = """
            store: postgres://reader:${PGPASS}@127.0.0.1:1/feeds
            feeds:
              - { name: fruit, adapter: fruit, url: data.json }
            """
        try Data(yaml.utf8).write(to: directory.appendingPathComponent("feeds.yaml"))
    }

    @Test func aServerThatCannotBeReachedIsNamedWithoutThePassword() async throws {
        for command in [["list"], ["runs"], ["export", "fruit"], ["run"]] {
            let result = try await FeedworkProcess.run(command, in: directory, environment: ["PGPASS": "s3cret"])
            #expect(result.status == 1, "\(command): \(result.stderr)\(result.stdout)")
            let output = result.stderr + result.stdout
            #expect(output.contains("postgres://reader@127.0.0.1:1/feeds"), "\(command): \(output)")
            #expect(!output.contains("s3cret"), "\(command): \(output)")
        }
    }

    @Test func validateNamesTheServerWithoutThePassword() async throws {
        let result = try await FeedworkProcess.run(["validate"], in: directory, environment: ["PGPASS": "s3cret"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stdout.contains("store postgres://reader@127.0.0.1:1/feeds (schema feedwork)"), "\(result.stdout)")
    }

    @Test func runWritesThePassesIntoPostgreSQLAndASecondRunChangesNothing() async throws {
        guard let (url, schema) = Self.server() else { return }
        defer { _ = try? Self.psql(url, "DROP SCHEMA \(schema) CASCADE") }
        try FileManager.default.copyItem(
            at: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
                .appendingPathComponent("../../Adapters/Fruit/Fixtures/data.json").standardizedFileURL,
            to: directory.appendingPathComponent("data.json"))
        let yaml = "store: \(url)\nschema: \(schema)\nfeeds:\n  - { name: fruit, adapter: fruit, url: data.json }\n"
        try Data(yaml.utf8).write(to: directory.appendingPathComponent("feeds.yaml"))
        let first = try await FeedworkProcess.run(["run", "--json"], in: directory)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.contains(#""inserted" : 9"#), "\(first.stdout)")
        #expect(first.stderr.isEmpty, "no notices from the server: \(first.stderr)")
        let second = try await FeedworkProcess.run(["run", "--json"], in: directory)
        #expect(second.stdout.contains(#""unchanged" : 9"#), "\(second.stdout)")
        #expect(try Self.psql(url, "SELECT count(*) FROM \(schema).fruit") == "9")
        let runs = try await FeedworkProcess.run(["runs", "--json"], in: directory)
        #expect(runs.status == 0, "\(runs.stderr)")
        #expect(runs.stdout.components(separatedBy: #""status" : "ok""#).count == 3, "\(runs.stdout)")
        #expect(try await FeedworkProcess.run(["rejects"], in: directory).status == 0)
        let list = try await FeedworkProcess.run(["list", "--json"], in: directory)
        #expect(list.stdout.contains(#""fruit" : 9"#), "\(list.stdout)")
        #expect(list.stdout.contains(#""status" : "ok""#), "\(list.stdout)")
        // The export reads the same rows as from SQLite.
        let export = try await FeedworkProcess.run(
            ["export", "fruit", "--where", "price<150", "--order", "-price"], in: directory)
        #expect(export.status == 0, "\(export.stderr)")
        try Data("feeds:\n  - { name: fruit, adapter: fruit, url: data.json }\n".utf8)
            .write(to: directory.appendingPathComponent("feeds.yaml"))
        #expect(try await FeedworkProcess.run(["run"], in: directory).status == 0)
        let sqlite = try await FeedworkProcess.run(
            ["export", "fruit", "--where", "price<150", "--order", "-price"], in: directory)
        #expect(export.stdout == sqlite.stdout)
        #expect(!export.stdout.isEmpty)
        #expect(
            try Self.psql(
                url,
                "SELECT format_type(atttypid, atttypmod) FROM pg_attribute WHERE attrelid = '\(schema).fruit'::regclass AND attname = 'price'"
            ) == "bigint")
    }

    /// Two feeds writing the same entities (both currency providers write `currency` and
    /// `exchange_rate`) run at once, pass after pass: a pass whose entities are in place
    /// changes no table, so neither holds a lock the other's writes wait for (their passes
    /// deadlocked on the second run when each re-recorded its entities in its transaction).
    @Test func feedsSharingEntitiesRunTogetherPassAfterPass() async throws {
        guard let (url, schema) = Self.server() else { return }
        defer { _ = try? Self.psql(url, "DROP SCHEMA \(schema) CASCADE") }
        let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Adapters/Currency/Fixtures").standardizedFileURL.path
        let yaml = """
            store: \(url)
            schema: \(schema)
            defaults: { concurrency: 2 }
            feeds:
              - name: currencylayer
                adapter: currency
                currencies: { url: \(fixtures)/list.json }
                rates: { url: \(fixtures)/live.json }
              - name: ecb
                adapter: currency
                provider: ecb
                rates: { url: \(fixtures)/ecb-daily.xml }
            """
        try Data(yaml.utf8).write(to: directory.appendingPathComponent("feeds.yaml"))
        for pass in 1...4 {
            let result = try await FeedworkProcess.run(["run"], in: directory)
            #expect(result.status == 0, "run \(pass): \(result.stdout)\(result.stderr)")
        }
    }

    @Test func twoProcessesRunningOneConfigNeverRunAFeedTwiceAtOnce() async throws {
        guard let (url, schema) = Self.server() else { return }
        defer { _ = try? Self.psql(url, "DROP SCHEMA \(schema) CASCADE") }
        // Each response takes a second, so the two processes' passes of a feed would overlap.
        let server = try LoopbackServer { request in
            Thread.sleep(forTimeInterval: 1)
            return .json(#"[{"id":1},{"id":2}]"#)
        }
        defer { server.stop() }
        let feeds = ["a", "b", "c"].map {
            "  - { name: \($0), adapter: json, url: \"\(server.url("/" + $0))\", entity: item_\($0), key: id, fields: { id: int } }"
        }
        let yaml = "store: \(url)\nschema: \(schema)\nfeeds:\n" + feeds.joined(separator: "\n") + "\n"
        try Data(yaml.utf8).write(to: directory.appendingPathComponent("feeds.yaml"))
        // The schema exists before both start, so neither waits on the other's migration.
        #expect(try await FeedworkProcess.run(["validate"], in: directory).status == 0)
        let first = try FeedworkProcess.startCollecting(["run", "--json", "--wait", "0s"], in: directory)
        let second = try FeedworkProcess.startCollecting(["run", "--json", "--wait", "0s"], in: directory)
        let results = [await first.finish(), await second.finish()]
        let errors = results.flatMap { result in
            ((try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8))) as? [String: Any])
                .flatMap { $0["feeds"] as? [[String: Any]] }?.compactMap { $0["error"] as? String } ?? []
        }
        #expect(errors.allSatisfy { $0.hasPrefix("feed busy: another pass of") }, "\(errors)")
        let overlaps = try Self.psql(
            url,
            """
            SELECT count(*) FROM \(schema)._runs a JOIN \(schema)._runs b ON a.feed = b.feed AND a.id < b.id
            WHERE a.status = 'ok' AND b.status = 'ok' AND a.started_at < b.finished_at AND b.started_at < a.finished_at
            """)
        #expect(overlaps == "0")
        #expect(try Self.psql(url, "SELECT count(DISTINCT feed) FROM \(schema)._runs WHERE status = 'ok'") == "3")
    }

    /// The test server (`FEEDWORK_TEST_POSTGRES_URL`) and a new schema name; without a server,
    /// `nil` after saying so (a failure when `CI` is set).
    static func server() -> (url: String, schema: String)? {
        guard let url = HarnessStore.postgresURL else {
            if ProcessInfo.processInfo.environment["CI"] != nil {
                Issue.record(Comment(rawValue: HarnessStore.absenceMessage))
            }
            print("skipped: \(HarnessStore.absenceMessage)")
            return nil
        }
        return (url, HarnessStore.schemaName("cli"))
    }

    /// One value from `psql` (Debian's postgresql-client), as a user would read it.
    static func psql(_ url: String, _ sql: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/psql")
        process.arguments = [url, "-tAc", sql]
        let output = Pipe()
        process.standardOutput = output
        try process.spawn()
        let text = String(decoding: output.fileHandleForReading.readAllRetryingInterrupts(), as: UTF8.self)
        process.waitUntilExit()
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

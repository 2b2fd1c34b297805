import Foundation
import Testing

/// `feedwork export --changed-since RUN --include-deleted` on a PostgreSQL store: the same
/// `replace` passes written into SQLite and into PostgreSQL export byte for byte the same.
@Suite("feedwork export --include-deleted: PostgreSQL as SQLite")
struct PostgresExportDeletedTests {
    let directory: URL

    init() throws {
        directory = try FeedworkProcess.makeFolder("postgres-deleted")
    }

    /// A `replace` feed keyed by an integer, a boolean, a timestamp and a decimal (each read
    /// back from a tombstone in its own way), with a child table, into `store`.
    static func config(store: String) -> String {
        """
        \(store)
        feeds:
          - name: shop
            adapter: json
            url: items.json
            entity: item
            key: [id, open, day, rate]
            write: replace
            fields:
              id: int
              open: bool
              day: timestamp
              rate: decimal
              name: string
              price: { type: money, currency: GBP }
              tags: { type: list, of: string }
        """
    }

    /// The items with these ids; id 2's time has milliseconds, the others' whole seconds.
    static func items(_ ids: [Int]) -> Data {
        let items = ids.map { id in
            let day = id == 2 ? "2026-01-02T03:04:05.250Z" : "2026-01-0\(id)T03:04:05Z"
            return
                #"{"id":\#(id),"open":\#(id % 2 == 0),"day":"\#(day)","rate":"\#(id).50","name":"item \#(id)","price":"\#(id).99","tags":["t\#(id)"]}"#
        }
        return Data("[\(items.joined(separator: ","))]".utf8)
    }

    /// Runs the same three passes into SQLite (`sqlite.yaml`) and into a new PostgreSQL schema
    /// (`postgres.yaml`): rows 2 and 4 deleted by the second, row 2 delivered again and row 3
    /// deleted by the third. Returns the schema, for dropping, or `nil` without a server.
    func runPassesIntoBothStores() async throws -> (url: String, schema: String)? {
        guard let (url, schema) = PostgresStoreCommandTests.server() else { return nil }
        try Data(Self.config(store: "store: feeds.sqlite").utf8).write(
            to: directory.appendingPathComponent("sqlite.yaml"))
        try Data(Self.config(store: "store: \(url)\nschema: \(schema)").utf8)
            .write(to: directory.appendingPathComponent("postgres.yaml"))
        for ids in [[1, 2, 3, 4], [1, 3, 5], [1, 2, 5]] {
            try Self.items(ids).write(to: directory.appendingPathComponent("items.json"))
            for config in ["sqlite.yaml", "postgres.yaml"] {
                let result = try await FeedworkProcess.run(["run", "-c", config], in: directory)
                #expect(result.status == 0, "\(config): \(result.stderr)\(result.stdout)")
            }
        }
        return (url, schema)
    }

    /// The export of `arguments` from each store: SQLite's, then PostgreSQL's.
    func exportFromBoth(_ arguments: [String]) async throws -> (sqlite: String, postgres: String) {
        let sqlite = try await FeedworkProcess.run(["export"] + arguments + ["-c", "sqlite.yaml"], in: directory)
        let postgres = try await FeedworkProcess.run(["export"] + arguments + ["-c", "postgres.yaml"], in: directory)
        #expect(sqlite.status == 0, "\(sqlite.stderr)")
        #expect(postgres.status == 0, "\(postgres.stderr)")
        return (sqlite.stdout, postgres.stdout)
    }

    @Test func everyFormatWritesTheDeletedRowsAsFromSQLite() async throws {
        guard let (url, schema) = try await runPassesIntoBothStores() else { return }
        defer { _ = try? PostgresStoreCommandTests.psql(url, "DROP SCHEMA \(schema) CASCADE") }
        for format in ["ndjson", "json", "csv"] {
            let (sqlite, postgres) = try await exportFromBoth(
                ["item", "--changed-since", "1", "--include-deleted", "--format", format])
            #expect(postgres == sqlite, "\(format)")
            #expect(sqlite.components(separatedBy: "true").count > 2, "\(format) holds deleted rows: \(sqlite)")
        }
    }

    @Test func aChildTableWritesItsDeletedRowsAsFromSQLite() async throws {
        guard let (url, schema) = try await runPassesIntoBothStores() else { return }
        defer { _ = try? PostgresStoreCommandTests.psql(url, "DROP SCHEMA \(schema) CASCADE") }
        let (sqlite, postgres) = try await exportFromBoth(["item__tags", "--changed-since", "1", "--include-deleted"])
        #expect(postgres == sqlite)
        #expect(sqlite.contains(#"{"_deleted":true,"_feed":"shop","_key":"3|false|"#), "\(sqlite)")
    }

    @Test func aTimeWindowSelectsTheSameDeletedRows() async throws {
        guard let (url, schema) = try await runPassesIntoBothStores() else { return }
        defer { _ = try? PostgresStoreCommandTests.psql(url, "DROP SCHEMA \(schema) CASCADE") }
        // Run 3 started after every run of the first two passes, in both stores.
        let started = try PostgresStoreCommandTests.psql(
            url,
            "SELECT to_char(started_at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"') FROM \(schema)._runs WHERE id = 3"
        )
        let postgres = try await FeedworkProcess.run(
            ["export", "item", "--changed-since", started, "--include-deleted", "-c", "postgres.yaml"], in: directory)
        #expect(postgres.status == 0, "\(postgres.stderr)")
        #expect(
            postgres.stdout == """
                {"id":2,"open":true,"day":"2026-01-02T03:04:05.250Z","rate":"2.50","name":"item 2","price":299}
                {"_deleted":true,"id":3,"open":false,"day":"2026-01-03T03:04:05Z","rate":"3.50","_feed":"shop","_key":"3|false|2026-01-03T03:04:05Z|3.50","_run":3}

                """)
    }
}

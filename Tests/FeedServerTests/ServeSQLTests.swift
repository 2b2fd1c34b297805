import FeedEngine
import FeedKit
import FeedServer
import FeedTestSupport
import Foundation
import Hummingbird
import Testing

/// `/api/sql` and the SQL page against a real server, on both stores: parameters, writes
/// refused with the store unchanged, the time and row limits, the hidden system tables, and a
/// server exposed beyond loopback.
@Suite struct ServeSQLTests {
    typealias JSON = [String: Any]

    /// Settings serving `harness` with `sql`, on loopback unless `host` says otherwise.
    static func settings(
        _ harness: FeedHarness, sql: SQLAccess = SQLAccess(), host: String = "127.0.0.1", token: String? = nil
    )
        throws -> ServeSettings
    {
        var settings = ServeSettings(
            address: ListenAddress(host: host, port: 0), token: token,
            browser: try StoreBrowser(config: try harness.config()), pricing: nil)
        settings.sql = sql
        return settings
    }

    /// `/api/sql` with `statement` and `parameters`, encoded as a browser's form would.
    static func uri(_ statement: String, _ parameters: [(String, String)] = [], path: String = "/api/sql") -> String {
        ([path + "?sql=" + encode(statement)] + parameters.map { "\(encode($0.0))=\(encode($0.1))" })
            .joined(separator: "&")
    }

    static func encode(_ text: String) -> String {
        text.addingPercentEncoding(
            withAllowedCharacters: CharacterSet(
                charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")) ?? text
    }

    /// The error of a 400 answer.
    static func error(_ response: ServedResponse) throws -> String {
        #expect(response.status == .badRequest, "\(ServedStore.text(response))")
        return try #require((try ServedStore.json(response) as? JSON)?["error"] as? String)
    }

    /// What the store holds, to compare before and after: every table's rows (and on SQLite its
    /// schema, `sqlite_master`), sorted, as one text. The SQLite file's bytes would do too, but
    /// the last connection of a pass to close checkpoints its WAL into the file at a time of
    /// its own.
    static func checksum(_ harness: FeedHarness) async throws -> String {
        let tables: [String]
        switch harness.storeKind {
        case .sqlite:
            tables =
                ["sqlite_master"]
                + (try await harness.rows("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name"))
                .compactMap {
                    if case .text(let name)? = $0["name"] { name } else { nil }
                }
        case .postgres:
            tables = ["classified", "category", "_runs", "_entities", "_state", "_http_cache", "_http_cache_body"]
        }
        #expect(tables.count > 5)
        var text = ""
        for table in tables {
            let rows = try await harness.rows("SELECT * FROM \"\(table)\"").map { row in
                row.keys.sorted().map { "\($0)=\(String(describing: row[$0]))" }.joined(separator: ",")
            }
            text += "\(table): \(rows.count)\n" + rows.sorted().joined(separator: "\n") + "\n"
        }
        return text
    }

    @Test(arguments: HarnessStore.available)
    func aParameterFromTheQueryStringSelectsTheRows(store: HarnessStore) async throws {
        let harness = try await ServedStore.harness(store)
        let expected = try await harness.rows(
            "SELECT id FROM classified WHERE category_id = $1 ORDER BY id", [.integer(4)]
        )
        .map { $0["id"] }
        #expect(!expected.isEmpty)
        try await ServedStore.serve(try Self.settings(harness)) { client in
            let response = try await client.execute(
                uri: Self.uri(
                    "SELECT id, title FROM classified WHERE category_id = :category ORDER BY id", [("category", "4")]),
                method: .get)
            #expect(response.status == .ok)
            let document = try #require(try ServedStore.json(response) as? JSON)
            #expect(document["columns"] as? [String] == ["id", "title"])
            let rows = try #require(document["rows"] as? [[Any]])
            #expect(rows.map { ($0[0] as? Int).map { FieldValue.integer(Int64($0)) } } == expected)
            #expect(document["truncated"] as? Bool == false)

            // The CSV download holds the same rows.
            let csv = try await client.execute(
                uri: Self.uri(
                    "SELECT id, title FROM classified WHERE category_id = :category ORDER BY id", [("category", "4")])
                    + "&format=csv", method: .get)
            #expect(csv.status == .ok)
            #expect(csv.headers["content-disposition"]?.contains("query.csv") == true)
            let lines = ServedStore.text(csv).components(separatedBy: "\r\n").filter { !$0.isEmpty }
            #expect(lines.first == "id,title")
            #expect(lines.count == expected.count + 1)
            #expect(lines.dropFirst().map { String($0.prefix { $0 != "," }) } == rows.map { "\($0[0])" })
        }
    }

    @Test(arguments: HarnessStore.available)
    func aParameterWithoutAValueIsRefusedNamingIt(store: HarnessStore) async throws {
        let harness = try await ServedStore.harness(store)
        try await ServedStore.serve(try Self.settings(harness)) { client in
            let response = try await client.execute(
                uri: Self.uri(
                    "SELECT id FROM classified WHERE category_id = :category AND title <> :title", [("category", "4")]),
                method: .get)
            #expect(try Self.error(response).contains("no value for the parameter :title"))
        }
    }

    @Test(arguments: HarnessStore.available)
    func aStatementFromAFormReadsPlusAsASpace(store: HarnessStore) async throws {
        let harness = try await ServedStore.harness(store)
        try await ServedStore.serve(try Self.settings(harness)) { client in
            // As a browser's GET form sends it: spaces as +, a plus as %2B.
            let response = try await client.execute(
                uri: "/api/sql?sql=SELECT+1+%2B+:two+AS+three&two=2", method: .get)
            #expect(response.status == .ok, "\(ServedStore.text(response))")
            let document = try #require(try ServedStore.json(response) as? JSON)
            #expect(document["columns"] as? [String] == ["three"])
            #expect((document["rows"] as? [[Int]]) == [[3]])
            let page = try await client.execute(uri: "/sql?sql=SELECT+%27a+b%27+AS+words", method: .get)
            #expect(page.status == .ok)
            #expect(ServedStore.text(page).contains("<td>a b</td>"))
        }
    }

    @Test(arguments: HarnessStore.available)
    func parametersAreFoundOutsideStringsCommentsAndCastsOnly(store: HarnessStore) async throws {
        let harness = try await ServedStore.harness(store)
        let cast = store == .sqlite ? "CAST('5' AS INTEGER)" : "'5'::integer"
        try await ServedStore.serve(try Self.settings(harness)) { client in
            let statement = """
                SELECT ':not_a_parameter' AS "a :quoted; name", \(cast) + :x AS n, :y AS y1, :y AS y2 -- :neither;
                /* nor :this; */;
                """
            let response = try await client.execute(
                uri: Self.uri(statement, [("x", "1"), ("y", "seven")]), method: .get)
            #expect(response.status == .ok, "\(ServedStore.text(response))")
            let document = try #require(try ServedStore.json(response) as? JSON)
            #expect(document["columns"] as? [String] == ["a :quoted; name", "n", "y1", "y2"])
            let row = try #require((document["rows"] as? [[Any]])?.first)
            #expect(row[0] as? String == ":not_a_parameter")
            #expect(row[1] as? Int == 6)
            #expect(row[2] as? String == "seven" && row[3] as? String == "seven")
            // The page shows a field for each parameter, once.
            let page = ServedStore.text(
                try await client.execute(uri: Self.uri(statement, path: "/sql"), method: .get))
            #expect(page.components(separatedBy: "id=\"parameter-").count - 1 == 2)
            #expect(page.contains("id=\"sql-missing\""))
        }
    }

    @Test(arguments: HarnessStore.available)
    func aStatementThatWritesIsRefusedAndTheStoreIsUnchanged(store: HarnessStore) async throws {
        let harness = try await ServedStore.harness(store)
        let attached = harness.directory.appendingPathComponent("attached.sqlite").path
        let sideEffect =
            store == .sqlite
            ? "SELECT load_extension('/nonexistent/evil')" : "SELECT set_config('search_path', 'public', false)"
        let statements = [
            "DELETE FROM classified",
            "WITH gone AS (DELETE FROM classified RETURNING id) SELECT * FROM gone",
            "ATTACH DATABASE '\(attached)' AS other",
            "PRAGMA writable_schema = ON",
            "SELECT 1; DELETE FROM classified",
            sideEffect,
            store == .sqlite ? "SELECT * FROM pragma_writable_schema" : "SELECT nextval('_runs_id_seq')",
        ]
        let before = try await Self.checksum(harness)
        try await ServedStore.serve(try Self.settings(harness)) { client in
            for statement in statements {
                let response = try await client.execute(uri: Self.uri(statement), method: .get)
                let message = try Self.error(response)
                #expect(!message.isEmpty, "\(statement)")
            }
        }
        #expect(try await Self.checksum(harness) == before)
        #expect(!FileManager.default.fileExists(atPath: attached))
        #expect(try await harness.count("classified") > 100)
    }

    @Test(arguments: HarnessStore.available)
    func aRunawayRecursiveQueryStopsAtTheTimeLimit(store: HarnessStore) async throws {
        let harness = try await ServedStore.harness(store)
        let sql = SQLAccess(timeLimit: .milliseconds(500))
        try await ServedStore.serve(try Self.settings(harness, sql: sql)) { client in
            let runaway = "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT count(*) FROM r"
            let message = try Self.error(try await client.execute(uri: Self.uri(runaway), method: .get))
            #expect(message.contains("time limit of 500 ms"), "\(message)")
            // The server answers the next statement as before.
            let next = try await client.execute(uri: Self.uri("SELECT count(*) AS n FROM classified"), method: .get)
            #expect(next.status == .ok)
        }
    }

    @Test(arguments: HarnessStore.available)
    func theRowLimitCutsTheResultAndSaysSo(store: HarnessStore) async throws {
        let harness = try await ServedStore.harness(store)
        try await ServedStore.serve(try Self.settings(harness, sql: SQLAccess(rowLimit: 7))) { client in
            let document = try #require(
                try ServedStore.json(try await client.execute(uri: Self.uri("SELECT id FROM classified"), method: .get))
                    as? JSON)
            #expect((document["rows"] as? [Any])?.count == 7)
            #expect(document["truncated"] as? Bool == true)
            #expect(document["row_limit"] as? Int == 7)
            let page = try await client.execute(uri: Self.uri("SELECT id FROM classified", path: "/sql"), method: .get)
            #expect(page.status == .ok)
            #expect(ServedStore.text(page).contains("id=\"sql-truncated\""))
            let few = try #require(
                try ServedStore.json(
                    try await client.execute(uri: Self.uri("SELECT id FROM classified LIMIT 7"), method: .get)) as? JSON
            )
            #expect(few["truncated"] as? Bool == false)
        }
    }

    @Test(arguments: HarnessStore.available)
    func theSystemTablesThatHoldSecretsAreHidden(store: HarnessStore) async throws {
        let harness = try await ServedStore.harness(store)
        var hidden = [
            "SELECT * FROM _state", "SELECT count(*) FROM _http_cache", "SELECT * FROM \"_HTTP_CACHE_BODY\"",
            "SELECT url FROM _outbox", "SELECT * FROM classified WHERE id IN (SELECT 1 FROM _state)",
            "WITH s AS (SELECT * FROM _state) SELECT * FROM s",
        ]
        if store == .sqlite {
            hidden += ["SELECT * FROM main._state", "SELECT * FROM [_state]", "SELECT * FROM `_http_cache`"]
        } else {
            hidden += [
                "SELECT query_to_xml('select * from _st' || 'ate', true, true, '')",
                "SELECT * FROM ts_stat('select 1')", "SELECT * FROM \"_state\"",
            ]
        }
        let statements = hidden
        try await ServedStore.serve(try Self.settings(harness)) { client in
            for statement in statements {
                let message = try Self.error(try await client.execute(uri: Self.uri(statement), method: .get))
                #expect(message.contains("hidden") || message.contains("not open"), "\(statement): \(message)")
            }
            // The tables the pages show stay open, and a hidden name in a string is only text.
            for statement in [
                "SELECT count(*) AS n FROM _runs", "SELECT name FROM _entities", "SELECT count(*) FROM _rejects",
                "SELECT '_state' AS word",
            ] {
                let response = try await client.execute(uri: Self.uri(statement), method: .get)
                #expect(response.status == .ok, "\(statement): \(ServedStore.text(response))")
            }
        }
    }

    @Test(arguments: HarnessStore.available)
    func aViewOverAHiddenTableIsRefusedToo(store: HarnessStore) async throws {
        let harness = try await ServedStore.harness(store)
        // A view someone made on the store, whose name says nothing of what it reads.
        try await harness.execute("CREATE VIEW harmless AS SELECT feed, key, value FROM _state")
        try await harness.execute("CREATE VIEW also_harmless AS SELECT id FROM classified")
        try await ServedStore.serve(try Self.settings(harness)) { client in
            let message = try Self.error(
                try await client.execute(uri: Self.uri("SELECT * FROM harmless"), method: .get))
            #expect(message.contains("_state") && message.contains("hidden"), "\(message)")
            let open = try await client.execute(uri: Self.uri("SELECT count(*) FROM also_harmless"), method: .get)
            #expect(open.status == .ok, "\(ServedStore.text(open))")
        }
    }

    @Test(arguments: HarnessStore.available)
    func badStatementsAreAnsweredWithTheirMessage(store: HarnessStore) async throws {
        let harness = try await ServedStore.harness(store)
        try await ServedStore.serve(try Self.settings(harness)) { client in
            let cases: [(String, [(String, String)], String)] = [
                ("SELEC id FROM classified", [], "only a SELECT"),
                ("SELECT id FROM FROM classified", [], "syntax"),
                ("SELECT nope FROM classified", [], "nope"),
                ("SELECT id FROM classified WHERE id = :id", [], ":id"),
                ("SELECT id FROM classified WHERE id = $1", [], ":name"),
                ("SELECT :format AS f", [("format", "csv")], "rename"),
                ("", [], "SELECT"),
                ("SELECT 1 AS one\u{0}; DELETE FROM classified", [], "NUL"),
            ]
            for (statement, parameters, expected) in cases {
                let message = try Self.error(
                    try await client.execute(uri: Self.uri(statement, parameters), method: .get))
                #expect(message.contains(expected), "\(statement): \(message)")
            }
            let page = try await client.execute(
                uri: Self.uri("SELECT nope FROM classified", path: "/sql"), method: .get)
            #expect(page.status == .badRequest)
            #expect(ServedStore.text(page).contains("id=\"sql-error\""))
        }
    }

    @Test func anExposedServerRefusesSQLWithoutAllowSQL() async throws {
        let harness = try await ServedStore.harness(.sqlite)
        let token = "a-token-of-sixteen-or-more"
        let headers = ["Authorization": "Bearer \(token)"]
        try await ServedStore.serve(try Self.settings(harness, host: "0.0.0.0", token: token)) { client in
            for path in ["/api/sql", "/sql"] {
                let response = try await client.execute(
                    uri: Self.uri("SELECT 1 AS one", path: path), method: .get, headers: headers)
                #expect(response.status == .forbidden)
                #expect(ServedStore.text(response).contains("--allow-sql"))
            }
            let entity = try await client.execute(uri: "/entities/classified", method: .get, headers: headers)
            #expect(entity.status == .ok)
            #expect(!ServedStore.text(entity).contains("open-in-sql"))
        }
        let allowed = try Self.settings(
            harness, sql: SQLAccess(allowedWhenExposed: true), host: "0.0.0.0", token: token)
        try await ServedStore.serve(allowed) { client in
            let response = try await client.execute(uri: Self.uri("SELECT 1 AS one"), method: .get, headers: headers)
            #expect(response.status == .ok)
        }
    }

    @Test(arguments: HarnessStore.available)
    func anEntityPageOpensInSQLWithItsFiltersAndSort(store: HarnessStore) async throws {
        let harness = try await ServedStore.harness(store)
        try await ServedStore.serve(try Self.settings(harness)) { client in
            let view = "where=price%3E10000&where=title~a&sort=-price&view=table"
            let page = ServedStore.text(try await client.execute(uri: "/entities/classified?\(view)", method: .get))
            let link = try #require(
                page.firstMatch(of: #/id="open-in-sql" href="([^"]*)"/#).map { String($0.output.1) })
            let target = link.replacingOccurrences(of: "&amp;", with: "&")
            #expect(target.hasPrefix("/sql?sql="))
            let sqlPage = try await client.execute(uri: target, method: .get)
            #expect(sqlPage.status == .ok, "\(ServedStore.text(sqlPage))")
            let result = try #require(
                try ServedStore.json(
                    try await client.execute(uri: "/api/" + target.dropFirst(), method: .get)) as? JSON)
            let columns = try #require(result["columns"] as? [String])
            let idColumn = try #require(columns.firstIndex(of: "id"))
            let ids = (result["rows"] as? [[Any]] ?? []).map { "\($0[idColumn])" }
            let api = try #require(
                try ServedStore.json(
                    try await client.execute(uri: "/api/entities/classified/rows?\(view)&limit=500", method: .get))
                    as? JSON)
            let expected = (api["rows"] as? [JSON] ?? []).map { "\($0["id"] ?? "")" }
            #expect(!ids.isEmpty)
            #expect(ids == expected)
        }
    }
}

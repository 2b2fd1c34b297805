import FeedStore
import Foundation
import Testing

@testable import FeedStorePostgres

/// libpq through ``PostgresConnection``, against a real server: values as text both ways,
/// COPY with every character that needs escaping, and errors that say where and why.
@Suite("PostgreSQL connection")
struct PostgresConnectionTests {
    @Test func parametersAreBoundAsTextAndReadBackExactly() throws {
        try PostgresTestServer.withSchema { connection, _ in
            try connection.execute("CREATE TABLE t (n bigint, d numeric, at timestamptz, ok boolean, note text)")
            try connection.execute(
                "INSERT INTO t VALUES ($1, $2, $3, $4, $5)",
                ["9007199254740993", "0.10000000000000000001", "2026-01-31T10:00:00Z", "true", nil])
            let rows = try connection.execute(
                "SELECT n, d, to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"'), ok, note FROM t")
            #expect(rows.count == 1)
            #expect(rows.columns == ["n", "d", "to_char", "ok", "note"])
            #expect(
                (0..<5).map { rows[0, $0] }
                    == ["9007199254740993", "0.10000000000000000001", "2026-01-31T10:00:00Z", "t", nil])
        }
    }

    @Test func copyCarriesTabsNewlinesBackslashesUnicodeAndNull() throws {
        try PostgresTestServer.withSchema { connection, _ in
            try connection.execute("CREATE TABLE t (id bigint, body text)")
            let texts: [String?] = ["a\tb", "line\nnext\r", #"back\slash \N"#, "café 🍐", "", nil]
            try connection.copy("COPY t FROM STDIN") { stream in
                for (index, text) in texts.enumerated() { try stream.appendRow([String(index), text]) }
            }
            let rows = try connection.execute("SELECT body FROM t ORDER BY id")
            #expect((0..<rows.count).map { rows[$0, 0] } == texts)
        }
    }

    @Test func aCopyOfManyRowsIsSentInChunks() throws {
        try PostgresTestServer.withSchema { connection, _ in
            try connection.execute("CREATE TABLE t (id bigint PRIMARY KEY, name text)")
            try connection.copy("COPY t FROM STDIN") { stream in
                for id in 0..<50_000 { try stream.appendRow([String(id), "item-\(id)"]) }
            }
            let rows = try connection.execute("SELECT count(*), sum(id) FROM t")
            #expect(rows[0, 0] == "50000")
            #expect(rows[0, 1] == "1249975000")
        }
    }

    @Test func aRefusedCopyLeavesTheConnectionUsable() throws {
        try PostgresTestServer.withSchema { connection, _ in
            try connection.execute("CREATE TABLE t (id bigint)")
            #expect(throws: PostgresError.self) {
                try connection.copy("COPY t FROM STDIN") { stream in try stream.appendRow(["not a number"]) }
            }
            #expect(try connection.execute("SELECT count(*) FROM t")[0, 0] == "0")
        }
    }

    @Test func anErrorCarriesTheServersMessageAndSQLState() throws {
        try PostgresTestServer.withSchema { connection, _ in
            try connection.execute("CREATE TABLE t (id bigint PRIMARY KEY)")
            try connection.execute("INSERT INTO t VALUES (1)")
            let error = try #require(throws: PostgresError.self) {
                try connection.execute("INSERT INTO t VALUES ($1)", ["1"])
            }
            #expect(error.sqlState == "23505")
            #expect(error.description.contains("duplicate key value"), "\(error)")
        }
    }

    @Test func aFailedConnectionNamesTheServerWithoutItsPassword() throws {
        guard PostgresTestServer.url != nil else { return PostgresTestServer.reportAbsence() }
        // Port 1 on loopback: nothing listens there.
        let error = try #require(throws: PostgresError.self) {
            try PostgresConnection(url: "postgres://reader:s3cret@127.0.0.1:1/feeds?connect_timeout=2")
        }
        #expect(error.description.contains("postgres://reader@127.0.0.1:1/feeds"), "\(error)")
        #expect(!error.description.contains("s3cret"))
        #expect(error.description.contains("cannot connect"))
    }
}

import FeedKit
import FeedStore
import Foundation
import Testing

@testable import FeedStorePostgres

/// `export --where` filters and orders in PostgreSQL's dialect, read back as SQLite gives them.
@Suite("PostgreSQL store: stored rows")
struct PostgresStoredRowsTests {
    static let item = EntitySchema(
        name: "item",
        columns: [
            Column("id", .integer), Column("name", .text), Column("price", .decimal), Column("added", .timestamp),
            Column("ok", .boolean), Column("category_id", .integer),
        ], key: ["id"], relations: [Relation(column: "category_id", entity: "category", labelColumn: "label")])
    static let category = EntitySchema(
        name: "category", columns: [Column("id", .integer), Column("label", .text)], key: ["id"])

    /// Three items and two categories, in the PostgreSQL store's tables.
    static func fill(_ store: Store) async throws {
        let schemas = try [item, category].map { String(decoding: try JSONEncoder().encode($0), as: UTF8.self) }
        try await store.postgres.write { connection in
            try EntityTable.ensure(Self.item, on: PostgresSQLConnection(connection: connection))
            try EntityTable.ensure(Self.category, on: PostgresSQLConnection(connection: connection))
            try connection.execute("INSERT INTO _entities(name, schema) VALUES ('item', $1), ('category', $2)", schemas)
            let stamp = "2026-01-01T00:00:00Z"
            for (id, name, price, ok, category) in [
                (1, "Pear", "9.50", "true", "1"), (2, "apple", "10.0", "false", "2"),
                (3, "Fig 100%", "100", "true", "1"),
            ] {
                try connection.execute(
                    """
                    INSERT INTO item (_feed, _key, _hash, _run, _first_seen, _last_seen, id, name, price, added, ok,
                        category_id)
                    VALUES ('shop', $1, 0, $2, $3, $3, $4, $5, $6, '2026-01-31T10:00:00.5Z', $7, $8)
                    """,
                    [String(id), String(id), stamp, String(id), name, price, ok, category])
            }
            try connection.execute(
                """
                INSERT INTO category (_feed, _key, _hash, _run, _first_seen, _last_seen, id, label)
                VALUES ('shop', '1', 0, 1, $1, $1, 1, 'Fruit'), ('shop', '2', 0, 1, $1, $1, 2, 'Pome')
                """,
                [stamp])
        }
    }

    func ids(_ store: Store, _ filters: [String], order: [String] = ["id"], limit: Int? = nil) async throws
        -> [Int64]
    {
        try await store.rows(of: "item", where: filters, order: order, limit: limit).compactMap {
            if case .integer(let id)? = $0["id"] { id } else { nil }
        }
    }

    @Test func decimalsCompareAsNumbersAndValuesComeBackAsOnSQLite() async throws {
        try await PostgresTestServer.withStore { store, _ in
            try await Self.fill(store)
            await #expect(try ids(store, ["price<10"]) == [1])
            await #expect(try ids(store, ["price>=10.00"]) == [2, 3])
            let row = try #require(try await store.rows(of: "item", where: ["id=1"], order: [], limit: nil).first)
            #expect(row["price"] == .text("9.50"))
            #expect(row["added"] == .text("2026-01-31T10:00:00.500Z"))
            #expect(row["ok"] == .integer(1))
            #expect(row["_run"] == .integer(1))
        }
    }

    @Test func containsIgnoresCaseAndTakesPercentLiterally() async throws {
        try await PostgresTestServer.withStore { store, _ in
            try await Self.fill(store)
            await #expect(try ids(store, ["name~PEAR"]) == [1])
            await #expect(try ids(store, ["name~100%"]) == [3])
        }
    }

    @Test func notEqualKeepsNullsAndRelationsMatchByLabelOrKey() async throws {
        try await PostgresTestServer.withStore { store, _ in
            try await Self.fill(store)
            await #expect(try ids(store, ["category=Pome"]) == [2])
            await #expect(try ids(store, ["category=1"]) == [1, 3])
            await #expect(try ids(store, ["category!=Fruit"]) == [2])
            await #expect(try ids(store, ["ok=true"]) == [1, 3])
        }
    }

    @Test func ordersAndLimitsApply() async throws {
        try await PostgresTestServer.withStore { store, _ in
            try await Self.fill(store)
            await #expect(try ids(store, [], order: ["-price"], limit: 2) == [3, 2])
            #expect(try await store.rows(of: "missing", where: [], order: [], limit: nil).isEmpty)
        }
    }
}

import FeedKit
import FeedStore
import FeedStoreDrivers
import FeedTestSupport
import Foundation
import Testing

/// The tables of an entity as ``EntityTable`` makes and changes them, the same job on both
/// stores through their connections: columns gained, a changed type refused, the key taken away
/// for history and given back, a column converted in place, the rows kept throughout.
@Suite("Store: entity tables, on both stores")
struct EntityTableTests {
    static let item = EntitySchema(
        name: "item", columns: [Column("id", .text), Column("count", .text)], key: ["id"],
        children: [ChildSchema(name: "tags", columns: [Column("value", .text)])])

    /// Runs `body` on a new store of `kind`, closed (and on a server, dropped) after it.
    func withStore(_ kind: HarnessStore, _ body: (Store) async throws -> Void) async throws {
        let location: StoreLocation
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tables-\(UUID().uuidString)")
        switch kind {
        case .sqlite:
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            location = StoreFactory.location(directory.appendingPathComponent("feeds.sqlite").path)
        case .postgres:
            let url = try #require(HarnessStore.postgresURL, Comment(rawValue: HarnessStore.absenceMessage))
            location = StoreFactory.location(url, schema: HarnessStore.schemaName("tables"))
        }
        defer {
            try? StoreFactory.dropSchema(of: location, redactor: Redactor())
            try? FileManager.default.removeItem(at: directory)
        }
        let store = try StoreFactory.writing(location, wait: .seconds(5), redactor: Redactor())
        do {
            try await body(store)
        } catch {
            try? await store.close()
            throw error
        }
        try await store.close()
    }

    /// Inserts a row of `item` with `id` as its key and `count`.
    static func insert(_ id: String, count: String, on connection: any SQLConnection) throws {
        try connection.execute(
            """
            INSERT INTO item (_feed, _key, _hash, _run, _first_seen, _last_seen, id, count)
            VALUES ('f', ?, 0, 1, '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z', ?, ?)
            """, [.text(id), .text(id), .text(count)])
    }

    static func stored(_ table: String, on store: Store) async throws -> StoredTable? {
        try await store.writeSQL { try StoredTable.read(table, references: true, on: $0) }
    }

    static func ids(on store: Store) async throws -> [String] {
        try await store.writeSQL { connection in
            try connection.rows("SELECT id FROM item ORDER BY id", []).compactMap { $0.first?.text }
        }
    }

    @Test(arguments: HarnessStore.available)
    func aNewEntityGetsItsTablesKeyedWithTheCommonColumnsFirst(kind: HarnessStore) async throws {
        try await withStore(kind) { store in
            try await store.writeSQL { try EntityTable.ensure(Self.item, on: $0) }
            let item = try #require(try await Self.stored("item", on: store))
            #expect(
                Array(item.columns.map(\.name).prefix(6)) == [
                    "_feed", "_key", "_hash", "_run", "_first_seen", "_last_seen",
                ])
            #expect(item.columns.map(\.name).suffix(2) == ["id", "count"])
            #expect(item.primaryKey == ["_feed", "_key"])
            let tags = try #require(try await Self.stored("item__tags", on: store))
            #expect(tags.columns.map(\.name) == ["_feed", "_key", "_position", "value"])
            #expect(tags.primaryKey == ["_feed", "_key", "_position"])
        }
    }

    @Test(arguments: HarnessStore.available)
    func ensuringAgainAddsTheColumnsTheSchemaGainedAndKeepsTheRows(kind: HarnessStore) async throws {
        try await withStore(kind) { store in
            var schema = Self.item
            schema.columns.append(Column("extra", .integer))
            schema.children[0].columns.append(Column("sku", .text))
            let grown = schema
            try await store.writeSQL { connection in
                try EntityTable.ensure(Self.item, on: connection)
                try Self.insert("a", count: "1", on: connection)
                try EntityTable.ensure(grown, on: connection)
                try EntityTable.ensure(grown, on: connection)
            }
            #expect(try await Self.stored("item", on: store)?.columns.last?.name == "extra")
            #expect(try await Self.stored("item__tags", on: store)?.columns.last?.name == "sku")
            #expect(try await Self.ids(on: store) == ["a"])
        }
    }

    @Test(arguments: HarnessStore.available)
    func aColumnWhoseTypeChangedIsRefusedNamingIt(kind: HarnessStore) async throws {
        try await withStore(kind) { store in
            try await store.writeSQL { try EntityTable.ensure(Self.item, on: $0) }
            var schema = Self.item
            schema.columns[1] = Column("count", .real)
            let changed = schema
            let error = await #expect(throws: StoreError.self) {
                try await store.writeSQL { try EntityTable.ensure(changed, on: $0) }
            }
            #expect(error?.message.contains("column 'count' of 'item' is ") == true, "\(String(describing: error))")
            #expect(error?.message.contains(" in the store but real in the config") == true)
        }
    }

    @Test(arguments: HarnessStore.available)
    func anEntityThatKeepsHistoryLosesItsKeyAndGetsItBackWithItsRows(kind: HarnessStore) async throws {
        try await withStore(kind) { store in
            try await store.writeSQL { connection in
                try EntityTable.ensure(Self.item, on: connection)
                try Self.insert("a", count: "1", on: connection)
                try EntityTable.ensure(Self.item, keyed: false, on: connection)
            }
            #expect(try await Self.stored("item", on: store)?.primaryKey == [])
            #expect(try await Self.stored("item__tags", on: store)?.primaryKey == [])
            try await store.writeSQL { try EntityTable.ensure(Self.item, keyed: true, on: $0) }
            #expect(try await Self.stored("item", on: store)?.primaryKey == ["_feed", "_key"])
            #expect(try await Self.stored("item__tags", on: store)?.primaryKey == ["_feed", "_key", "_position"])
            #expect(try await Self.ids(on: store) == ["a"])
        }
    }

    @Test(arguments: HarnessStore.available)
    func aTableWhoseRowsRepeatAKeyStaysWithoutOne(kind: HarnessStore) async throws {
        try await withStore(kind) { store in
            try await store.writeSQL { connection in
                try EntityTable.ensure(Self.item, keyed: false, on: connection)
                try Self.insert("a", count: "1", on: connection)
                try Self.insert("a", count: "2", on: connection)
                try EntityTable.ensure(Self.item, keyed: true, on: connection)
            }
            #expect(try await Self.stored("item", on: store)?.primaryKey == [])
            #expect(try await Self.ids(on: store) == ["a", "a"])
        }
    }

    @Test(arguments: HarnessStore.available)
    func aConvertedColumnTakesItsNewTypeKeepingTheRowsAndTheKey(kind: HarnessStore) async throws {
        try await withStore(kind) { store in
            try await store.writeSQL { connection in
                try EntityTable.ensure(Self.item, on: connection)
                try Self.insert("a", count: "5", on: connection)
                let expression = connection.dialect.converted(
                    SQLIdentifier.quoted("count"), from: .text, to: .integer)
                try EntityTable.convert(
                    "count", of: "item", in: Self.item, to: .integer, expression: expression, on: connection)
            }
            let item = try #require(try await Self.stored("item", on: store))
            let dialect = store.driver.dialect
            #expect(
                item.columns.first { $0.name == "count" }?.type.uppercased()
                    == dialect.storedColumnType(.integer).uppercased())
            #expect(item.primaryKey == ["_feed", "_key"])
            let counts = try await store.writeSQL { connection in
                try connection.rows("SELECT count FROM item", []).compactMap { $0.first?.integer }
            }
            #expect(counts == [5])
        }
    }
}

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

    static let category = EntitySchema(
        name: "category", columns: [Column("id", .text), Column("rank", .text)], key: ["id"])
    static let ad = EntitySchema(
        name: "ad", columns: [Column("id", .text), Column("category_id", .text)], key: ["id"],
        relations: [Relation(column: "category_id", entity: "category", enforced: true)])

    /// The names of the indexes on `table`.
    static func indexes(on table: String, kind: HarnessStore, store: Store) async throws -> Set<String> {
        let sql =
            kind == .sqlite
            ? "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ?"
            : "SELECT indexname FROM pg_indexes WHERE tablename = ? AND schemaname = current_schema()"
        return try await store.writeSQL { connection in
            Set(try connection.rows(sql, [.text(table)]).compactMap { $0.first?.text })
        }
    }

    /// Prepares `category` and `ad` (whose `category_id` points at it) as a pass would, with a
    /// category ranked 1 and an ad in it.
    static func prepareAdsAndCategories(on store: Store) async throws {
        try await store.writeSQL { connection in
            try SchemaPreparation.prepare(
                [EntityBinding(Self.category), EntityBinding(Self.ad)], on: connection, dialect: connection.dialect)
            let common = "'f', ?, 0, 1, '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z'"
            try connection.execute(
                "INSERT INTO category (_feed, _key, _hash, _run, _first_seen, _last_seen, id, rank) "
                    + "VALUES (\(common), ?, '1')", [.text("c1"), .text("c1")])
            try connection.execute(
                "INSERT INTO ad (_feed, _key, _hash, _run, _first_seen, _last_seen, id, category_id) "
                    + "VALUES (\(common), ?, 'c1')", [.text("a1"), .text("a1")])
        }
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

    @Test(arguments: HarnessStore.available)
    func aTableWithoutItsKeyKeepsItsLookupIndexesWhenAColumnIsConverted(kind: HarnessStore) async throws {
        try await withStore(kind) { store in
            try await store.writeSQL { connection in
                try EntityTable.ensure(Self.item, keyed: false, on: connection)
                try Self.insert("a", count: "5", on: connection)
            }
            let childLookup = kind == .sqlite ? "item__tags_parent" : "item__tags_feed_key"
            #expect(try await Self.indexes(on: "item", kind: kind, store: store).contains("item_feed_key"))
            #expect(try await Self.indexes(on: "item__tags", kind: kind, store: store).contains(childLookup))
            try await store.writeSQL { connection in
                for (column, table) in [("count", "item"), ("value", "item__tags")] {
                    let expression = connection.dialect.converted(
                        SQLIdentifier.quoted(column), from: .text, to: .integer)
                    try EntityTable.convert(
                        column, of: table, in: Self.item, to: .integer, expression: expression, on: connection)
                }
            }
            #expect(try await Self.indexes(on: "item", kind: kind, store: store).contains("item_feed_key"))
            #expect(try await Self.indexes(on: "item__tags", kind: kind, store: store).contains(childLookup))
            #expect(try await Self.stored("item", on: store)?.primaryKey == [])
            #expect(try await Self.ids(on: store) == ["a"])
        }
    }

    @Test(arguments: HarnessStore.available)
    func anEnforcedRelationGetsItsForeignKeyAndAnIndexOnItsColumn(kind: HarnessStore) async throws {
        try await withStore(kind) { store in
            try await Self.prepareAdsAndCategories(on: store)
            let ad = try #require(try await Self.stored("ad", on: store))
            #expect(ad.foreignKeys == [ForeignKey(entity: "ad", column: "category_id", parent: "category")])
            #expect(try await Self.indexes(on: "ad", kind: kind, store: store).contains("ad_category_id_ref"))
        }
    }

    /// Rebuilding it would count the rows pointing at it as pointing at nothing.
    @Test(arguments: HarnessStore.available.filter { $0 == .sqlite })
    func aTableAForeignKeyPointsAtIsNotRebuiltAndTheRefusalNamesThePointingTable(kind: HarnessStore) async throws {
        try await withStore(kind) { store in
            try await Self.prepareAdsAndCategories(on: store)
            let error = await #expect(throws: StoreError.self) {
                try await store.writeSQL { connection in
                    let expression = connection.dialect.converted(
                        SQLIdentifier.quoted("rank"), from: .text, to: .integer)
                    try EntityTable.convert(
                        "rank", of: "category", in: Self.category, to: .integer, expression: expression,
                        on: connection)
                }
            }
            #expect(
                error?.message
                    == "table 'category' must be rebuilt to change its keys or a column's type, "
                    + "but the foreign key of 'ad' points at it; nothing was changed")
            let rank = try await Self.stored("category", on: store)?.columns.first { $0.name == "rank" }
            #expect(rank?.type == "TEXT")
        }
    }

    @Test(arguments: HarnessStore.available.filter { $0 == .postgres })
    func aTableAForeignKeyPointsAtHasAColumnConvertedInPlace(kind: HarnessStore) async throws {
        try await withStore(kind) { store in
            try await Self.prepareAdsAndCategories(on: store)
            try await store.writeSQL { connection in
                let expression = connection.dialect.converted(SQLIdentifier.quoted("rank"), from: .text, to: .integer)
                try EntityTable.convert(
                    "rank", of: "category", in: Self.category, to: .integer, expression: expression, on: connection)
            }
            let category = try #require(try await Self.stored("category", on: store))
            #expect(category.columns.first { $0.name == "rank" }?.type == "bigint")
            #expect(try await Self.stored("ad", on: store)?.foreignKeys.count == 1)
            let ranks = try await store.writeSQL { connection in
                try connection.rows("SELECT rank FROM category", []).compactMap { $0.first?.integer }
            }
            #expect(ranks == [1])
        }
    }
}

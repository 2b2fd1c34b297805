import FeedEngine
import FeedKit

/// A field of an entity as the tools describe it.
struct FieldDocument: Encodable {
    var name: String
    var type: String
    var currency: String?
    /// Whether it is one of the `_` columns Feedwork keeps with every row (`_feed`, `_key`...).
    var meta: Bool
}

/// An entity or child table as `list_entities`, `describe_entity` and `feedwork://schema` give it.
struct EntityDocument: Encodable {
    struct RelationDocument: Encodable {
        var column: String
        var entity: String
    }

    var name: String
    var parent: String?
    var key: [String]
    var rows: Int
    var summary: String?
    var fields: [FieldDocument]?
    var relations: [RelationDocument]?
    var children: [String]?
    var search: [String]?
    /// The entity's SQL view (`<entity>_view`: decimals as numbers, related rows' labels beside
    /// their keys); child tables have none.
    var view: String?
    /// Columns the store keeps that the entity's fields no longer declare (``RetiredColumn``).
    var retired: [RetiredColumn]?
}

extension FeedTools {
    /// `list_feeds`: the overview `feedwork list` prints, every feed of the config and the store.
    func listFeeds() async throws -> String {
        struct FeedDocument: Encodable {
            var feed: String
            var adapter: String
            var enabled: Bool
            var status: String?
            var lastRun: String?
            var error: String?
            var rows: [String: Int]
            var rejects: Int
            var cursor: String?
            var schedule: String?
            var nextRun: String?
        }
        let overview =
            try config.storeExists()
            ? try await FeedOverview.load(config: config) : FeedOverview.neverRun(config: config)
        return JSONText.line(
            overview.map {
                FeedDocument(
                    feed: $0.name, adapter: $0.adapter, enabled: $0.enabled, status: $0.status, lastRun: $0.lastRun,
                    error: $0.last?.error, rows: Dictionary($0.rows.map { ($0.entity, $0.rows) }, uniquingKeysWith: +),
                    rejects: $0.rejects, cursor: $0.cursor, schedule: $0.schedule?.description, nextRun: $0.nextRun)
            })
    }

    /// `list_entities`: every table with its key, parent and rows.
    func listEntities() async throws -> String {
        let browser = try await browser()
        var documents: [EntityDocument] = []
        for table in try await browser.tables() {
            documents.append(
                EntityDocument(name: table.name, parent: table.parent, key: table.key, rows: try await rows(of: table)))
        }
        return JSONText.line(documents)
    }

    /// `describe_entity`: one table in full.
    func describeEntity(_ name: String) async throws -> String {
        let browser = try await browser()
        let tables = try await browser.tables()
        guard let table = tables.first(where: { $0.name == name }) else {
            throw ToolFailure(
                "no entity or child table '\(name)' in the store; it has: "
                    + tables.map(\.name).joined(separator: ", "))
        }
        let retired = try await RetiredColumn.marks(in: browser.store)
        return JSONText.line(try await document(table, among: tables, retired: retired))
    }

    /// `feedwork://schema`: every table in full.
    func schemaDocument() async throws -> String {
        let tables = try await browser().tables()
        let retired = try await RetiredColumn.marks(in: browser().store)
        var documents: [EntityDocument] = []
        for table in tables { documents.append(try await document(table, among: tables, retired: retired)) }
        return JSONText.line(documents)
    }

    private func document(_ table: ExportTable, among tables: [ExportTable], retired: [String: [RetiredColumn]])
        async throws -> EntityDocument
    {
        let schema = try await browser().schema(of: table.name)
        return EntityDocument(
            name: table.name, parent: table.parent, key: table.key, rows: try await rows(of: table),
            summary: schema.map(\.summary).flatMap { $0.isEmpty ? nil : $0 },
            fields: table.allFields.map {
                FieldDocument(name: $0.name, type: $0.type.rawValue, currency: $0.currency, meta: $0.isMeta)
            },
            relations: table.relations.map { .init(column: $0.column, entity: $0.entity) },
            children: tables.filter { $0.parent == table.name }.map(\.name),
            search: schema?.search ?? [], view: table.parent == nil ? EntityView.name(table.name) : nil,
            retired: table.parent == nil ? retired[table.name] ?? [] : nil)
    }

    /// The rows `table` holds.
    private func rows(of table: ExportTable) async throws -> Int {
        let counted = try await browser().store.query(
            "SELECT count(*) AS n FROM \(SQLIdentifier.quoted(table.name))", arguments: [])
        guard case .integer(let count)? = counted.first?["n"] else { return 0 }
        return Int(count)
    }
}

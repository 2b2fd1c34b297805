import FeedEngine
import FeedKit
import Foundation

/// What a run produced for some feeds, in the shape fixture suites compare: rows per table,
/// each row a JSON object, sorted so the same records always read the same.
///
/// Tables are named after the file that holds them in `expected/`:
///
/// - an entity (`fruit`): `_feed`, `_key`, then the schema's columns. The store's bookkeeping
///   columns (`_hash`, `_run`, `_first_seen`, `_last_seen`) are left out: they change on every run.
/// - a child list (`listing__images`): `_feed`, `_key` (the parent's), `_position`, then its columns.
/// - ``rejectsTable``: `feed`, `entity`, `path`, `reason`, `raw` of each reject.
///
/// Values follow the column's type: integers and reals are JSON numbers, booleans `true`/`false`,
/// decimals, timestamps, text and JSON columns strings. Rows are sorted by feed, then key (numbers
/// inside keys in numeric order, so `2` comes before `10`), then position; rejects by feed,
/// entity and path.
public struct RecordSnapshot: Sendable, Hashable {
    /// The table of rejects.
    public static let rejectsTable = "_rejects"

    /// Rows by table name.
    public var tables: [String: [JSONObject]]
    /// The decimal columns of each table, which compare by value (`"12.50"` and `"12.5"` are
    /// equal). A snapshot read from a store knows them; one read from expected files does not.
    public var decimalColumns: [String: Set<String>]

    public init(tables: [String: [JSONObject]] = [:], decimalColumns: [String: Set<String>] = [:]) {
        self.tables = tables
        self.decimalColumns = decimalColumns
    }

    /// The rows that `feeds` hold in `store`, with their rejects.
    ///
    /// Every entity the feeds declare has a table, empty when no row was written.
    package static func read(from store: any StoreReading, feeds: [FeedConfig]) async throws -> RecordSnapshot {
        let names = feeds.map(\.name)
        var schemas: [String: EntitySchema] = [:]
        for feed in feeds {
            for binding in feed.adapter.entities { schemas[binding.schema.name] = binding.schema }
        }
        var tables: [String: [JSONObject]] = [:]
        var decimalColumns: [String: Set<String>] = [:]
        func decimals(_ columns: [FeedKit.Column]) -> Set<String> {
            Set(columns.filter { $0.type == .decimal }.map(\.name))
        }
        for schema in schemas.values {
            tables[schema.name] = try await rows(
                of: schema.name, entity: schema.name, identity: ["_feed", "_key"], columns: schema.columns,
                feeds: names, in: store)
            decimalColumns[schema.name] = decimals(schema.columns)
            for child in schema.children {
                let table = schema.childTableName(child)
                tables[table] = try await rows(
                    of: table, entity: schema.name, identity: ["_feed", "_key", "_position"], columns: child.columns,
                    feeds: names, in: store)
                decimalColumns[table] = decimals(child.columns)
            }
        }
        let rejectFields = ["feed", "entity", "path", "reason", "raw"]
        tables[rejectsTable] = try await store.rejects(of: names).map { row in
            JSONObject(rejectFields.map { (key: $0, value: value(row[$0] ?? .null, type: .text)) })
        }
        .sorted { less($0, $1, by: ["feed", "entity", "path"]) }
        return RecordSnapshot(tables: tables, decimalColumns: decimalColumns)
    }

    private static func rows(
        of table: String, entity: String, identity: [String], columns: [FeedKit.Column], feeds: [String],
        in store: any StoreReading
    ) async throws -> [JSONObject] {
        let names = identity + columns.map(\.name)
        let types = Dictionary(columns.map { ($0.name, $0.type) }, uniquingKeysWith: { first, _ in first })
        return try await store.rows(of: table, entity: entity, columns: names, feeds: feeds).map { row in
            JSONObject(names.map { name in (key: name, value: value(row[name] ?? .null, type: types[name] ?? .text)) })
        }
        .sorted { less($0, $1, by: identity) }
    }

    /// A stored value as JSON, following the column's type.
    static func value(_ stored: FieldValue, type: ColumnType) -> JSONValue {
        switch stored {
        case .null: return .null
        case .integer(let number):
            return type == .boolean ? .bool(number != 0) : .number(String(number))
        case .real(let number):
            return number.isFinite ? .number(String(number)) : .string(String(number))
        case .text(let text): return .string(text)
        case .bool(let flag): return .bool(flag)
        }
    }

    /// Whether `a` sorts before `b` on the `fields`, compared as text with numbers in numeric order.
    static func less(_ a: JSONObject, _ b: JSONObject, by fields: [String]) -> Bool {
        for field in fields {
            let left = text(of: a[field])
            let right = text(of: b[field])
            switch left.compare(right, options: [.numeric]) {
            case .orderedAscending: return true
            case .orderedDescending: return false
            case .orderedSame: continue
            }
        }
        return false
    }

    /// A value as plain text, for ordering and identities.
    static func text(of value: JSONValue?) -> String {
        switch value {
        case .string(let text)?: text
        case .number(let text)?: text
        case .bool(let flag)?: String(flag)
        case .null?, nil: ""
        case let other?: other.jsonText
        }
    }
}

extension RecordSnapshot {
    /// The snapshot with every secret in its strings replaced by `***`, so expected files never
    /// hold one, and rows made with a real secret compare equal to rows recorded without it.
    public func redacted(with redactor: Redactor) -> RecordSnapshot {
        guard !redactor.secrets.isEmpty else { return self }
        func redact(_ value: JSONValue) -> JSONValue {
            switch value {
            case .string(let text): .string(redactor.redact(text))
            case .array(let items): .array(items.map(redact))
            case .object(let object): .object(JSONObject(object.members.map { ($0.key, redact($0.value)) }))
            case .null, .bool, .number: value
            }
        }
        return RecordSnapshot(
            tables: tables.mapValues { rows in
                rows.map { JSONObject($0.members.map { ($0.key, redact($0.value)) }) }
            }, decimalColumns: decimalColumns)
    }
}

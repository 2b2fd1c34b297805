import FeedKit
import FeedStore

/// One keyset page of an entity or child table (``StoreBrowser/page(_:limit:)``).
public struct EntityPage: Sendable {
    public var table: ExportTable
    /// The columns of ``rows``, in order: the table's `_` columns, then the schema's.
    public var fields: [ExportField]
    public var rows: [[FieldValue]]
    /// The cursor of the next page; `nil` on the last page.
    public var next: PageCursor?

    /// The value of `field` in `row`, or null.
    public func value(_ field: String, in row: [FieldValue]) -> FieldValue {
        guard let index = fields.firstIndex(where: { $0.name == field }), index < row.count else { return .null }
        return row[index]
    }

    /// The rows as a JSON array of objects, each value typed as `feedwork export` writes it.
    public var rowsJSON: String {
        let output = ExportOutput.memory()
        let encoder = JSONRowEncoder(fields: fields)
        output.append(UInt8(ascii: "["))
        for (index, row) in rows.enumerated() {
            if index > 0 { output.append(UInt8(ascii: ",")) }
            encoder.encode(row, to: output)
        }
        output.append(UInt8(ascii: "]"))
        try? output.flush()
        return String(decoding: output.bytes, as: UTF8.self)
    }
}

/// Collects the rows of a small query, for pages.
private struct CollectingWriter: ExportWriter {
    var rows: [[FieldValue]] = []
    mutating func begin(_ output: ExportOutput) {}
    mutating func write(_ row: [FieldValue], to output: ExportOutput) { rows.append(row) }
    mutating func writeDeleted(_ tombstone: [FieldValue], to output: ExportOutput) {}
    mutating func end(_ output: ExportOutput) {}
}

extension StoreBrowser {
    /// The largest page a request may ask for.
    public static let maximumPageSize = 500

    /// The page of `request.entity` that `request.keyset` names, with `request`'s feeds and
    /// filters: at most `limit` rows, read in one snapshot.
    ///
    /// - Throws: a usage ``ExportError`` for an unknown entity, field or feed, a filter value
    ///   that does not fit its column, or a cursor of another order.
    public func page(_ request: ExportRequest, limit: Int) async throws -> EntityPage {
        guard (1...Self.maximumPageSize).contains(limit) else {
            throw ExportError.usage("limit \(limit): expected 1 to \(Self.maximumPageSize) rows")
        }
        var request = request
        request.includeMeta = true
        request.columns = []
        request.keyset = request.keyset ?? Keyset()
        request.limit = limit + 1
        let query = try await exporter.query(for: request)
        var rows = try await exporter.read { snapshot in
            var writer: any ExportWriter = CollectingWriter()
            _ = try snapshot.stream(query, writer: &writer, to: .memory())
            return (writer as? CollectingWriter)?.rows ?? []
        }
        var page = EntityPage(table: query.table, fields: query.fields, rows: rows, next: nil)
        if rows.count > limit {
            rows.removeLast()
            page.rows = rows
            if let last = rows.last {
                var names = Keyset.keyColumns(of: query.table)
                if let sort = request.keyset?.sort {
                    names.insert(sort.column, at: 0)
                } else if request.search != nil {
                    names.insert(Keyset.rankField.name, at: 0)
                }
                page.next = PageCursor(values: names.map { page.value($0, in: last) })
            }
        }
        return page
    }
}

extension EntityPage {
    /// The name under which a keyset read selects an entity table's tie-breaker.
    public static let tiebreakName = "_row"

    /// The page with the columns serve's API and `feedwork mcp` list: without `_row`, the
    /// tie-breaker a keyset read selects (SQLite's rowid, PostgreSQL's identity column), whose
    /// numbers differ between the stores and which the next page's cursor already carries. So
    /// both give the same columns and values on both stores.
    public var tableColumns: EntityPage {
        guard let index = fields.firstIndex(where: { $0.name == Self.tiebreakName }) else { return self }
        var page = self
        page.fields.remove(at: index)
        page.rows = rows.map { row in
            var row = row
            if index < row.count { row.remove(at: index) }
            return row
        }
        return page
    }
}

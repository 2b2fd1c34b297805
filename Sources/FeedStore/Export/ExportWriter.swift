import FeedKit

/// Turns a stream of rows into one output format. A writer sees each row once, in order, and
/// keeps nothing of it.
public protocol ExportWriter {
    /// Writes what comes before the first row (a CSV header, a JSON `[`).
    mutating func begin(_ output: ExportOutput) throws(ExportError)
    /// Writes one row; `row` follows the fields the writer was made with.
    mutating func write(_ row: [FieldValue], to output: ExportOutput) throws(ExportError)
    /// Writes one deleted row (a tombstone), after the rows; `tombstone` follows the
    /// `deletedFields` the writer was made with (see ``DeletedRows``).
    mutating func writeDeleted(_ tombstone: [FieldValue], to output: ExportOutput) throws(ExportError)
    /// Writes what comes after the last row.
    mutating func end(_ output: ExportOutput) throws(ExportError)
}

/// The output formats of `feedwork export`.
public enum ExportFormat: String, Sendable, CaseIterable, Codable {
    /// One JSON object per line (`\n`), keys in column order.
    case ndjson
    /// One JSON array of objects.
    case json
    /// RFC 4180 CSV with a header row.
    case csv
    /// Singer messages: SCHEMA, one RECORD per row, and a final STATE (``SingerWriter``).
    case singer

    /// The file extension of the format, without the dot.
    public var fileExtension: String { self == .singer ? "singer.jsonl" : rawValue }

    /// A writer for rows of `fields` of `table`, and for tombstones of `deletedFields` when the
    /// export includes deleted rows; `formulas` applies to CSV alone.
    public func makeWriter(
        for table: ExportTable, fields: [ExportField], deletedFields: [ExportField]? = nil,
        formulas: CSVWriter.Formulas = .verbatim
    ) -> any ExportWriter {
        switch self {
        case .ndjson: NDJSONWriter(fields: fields, deletedFields: deletedFields)
        case .json: JSONArrayWriter(fields: fields, deletedFields: deletedFields)
        case .csv: CSVWriter(fields: fields, deletedFields: deletedFields, formulas: formulas)
        case .singer: SingerWriter(table: table, fields: fields)
        }
    }

    /// A writer for the rows `query` selects, and its tombstones.
    package func makeWriter(for query: ExportQuery, formulas: CSVWriter.Formulas = .verbatim) -> any ExportWriter {
        makeWriter(for: query.table, fields: query.fields, deletedFields: query.deleted?.fields, formulas: formulas)
    }
}

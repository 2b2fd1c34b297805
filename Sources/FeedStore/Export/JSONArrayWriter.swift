import FeedKit

/// One JSON array holding an object per row (one per line), streamed: `[` first, `]` last.
/// Values are typed as described in ``JSONRowEncoder``; deleted rows as in ``NDJSONWriter``.
public struct JSONArrayWriter: ExportWriter {
    private let encoder: JSONRowEncoder
    private let deletedEncoder: JSONRowEncoder
    private var rows = 0

    public init(fields: [ExportField], deletedFields: [ExportField]? = nil) {
        encoder = JSONRowEncoder(fields: fields)
        deletedEncoder = JSONRowEncoder(fields: deletedFields ?? [], deleted: true)
    }

    public mutating func begin(_ output: ExportOutput) { output.append(UInt8(ascii: "[")) }

    public mutating func write(_ row: [FieldValue], to output: ExportOutput) throws(ExportError) {
        try write(row, with: encoder, to: output)
    }

    public mutating func writeDeleted(_ tombstone: [FieldValue], to output: ExportOutput) throws(ExportError) {
        try write(tombstone, with: deletedEncoder, to: output)
    }

    private mutating func write(_ row: [FieldValue], with encoder: JSONRowEncoder, to output: ExportOutput)
        throws(ExportError)
    {
        output.append(rows == 0 ? "\n" : ",\n")
        encoder.encode(row, to: output)
        rows += 1
        try output.flushIfNeeded()
    }

    public mutating func end(_ output: ExportOutput) {
        output.append(rows == 0 ? "]\n" : "\n]\n")
    }
}

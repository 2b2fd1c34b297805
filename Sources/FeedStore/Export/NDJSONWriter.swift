import FeedKit

/// Newline-delimited JSON: one compact object per row, each followed by `\n`. Values are typed
/// as described in ``JSONRowEncoder``; strings never hold a raw newline, so a line is a row.
/// A deleted row is `{"_deleted":true,` its key fields, `_feed`, `_key` and `_run` `}`.
public struct NDJSONWriter: ExportWriter {
    private let encoder: JSONRowEncoder
    private let deletedEncoder: JSONRowEncoder

    public init(fields: [ExportField], deletedFields: [ExportField]? = nil) {
        encoder = JSONRowEncoder(fields: fields)
        deletedEncoder = JSONRowEncoder(fields: deletedFields ?? [], deleted: true)
    }

    public mutating func begin(_ output: ExportOutput) {}

    public mutating func write(_ row: [FieldValue], to output: ExportOutput) throws(ExportError) {
        try write(row, with: encoder, to: output)
    }

    private func write(_ row: [FieldValue], with encoder: JSONRowEncoder, to output: ExportOutput)
        throws(ExportError)
    {
        encoder.encode(row, to: output)
        output.append(UInt8(ascii: "\n"))
        try output.flushIfNeeded()
    }

    public mutating func writeDeleted(_ tombstone: [FieldValue], to output: ExportOutput) throws(ExportError) {
        try write(tombstone, with: deletedEncoder, to: output)
    }

    public mutating func end(_ output: ExportOutput) {}
}

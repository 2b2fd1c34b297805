import FeedKit

/// Newline-delimited JSON: one compact object per row, each followed by `\n`. Values are typed
/// as described in ``JSONRowEncoder``; strings never hold a raw newline, so a line is a row.
public struct NDJSONWriter: ExportWriter {
    private let encoder: JSONRowEncoder

    public init(fields: [ExportField]) { encoder = JSONRowEncoder(fields: fields) }

    public mutating func begin(_ output: ExportOutput) {}

    public mutating func write(_ row: [FieldValue], to output: ExportOutput) throws(ExportError) {
        encoder.encode(row, to: output)
        output.append(UInt8(ascii: "\n"))
        try output.flushIfNeeded()
    }

    public mutating func end(_ output: ExportOutput) {}
}

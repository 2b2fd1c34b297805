import FeedKit

/// One JSON array holding an object per row (one per line), streamed: `[` first, `]` last.
/// Values are typed as described in ``JSONRowEncoder``.
public struct JSONArrayWriter: ExportWriter {
    private let encoder: JSONRowEncoder
    private var rows = 0

    public init(fields: [ExportField]) { encoder = JSONRowEncoder(fields: fields) }

    public mutating func begin(_ output: ExportOutput) { output.append(UInt8(ascii: "[")) }

    public mutating func write(_ row: [FieldValue], to output: ExportOutput) throws(ExportError) {
        output.append(rows == 0 ? "\n" : ",\n")
        encoder.encode(row, to: output)
        rows += 1
        try output.flushIfNeeded()
    }

    public mutating func end(_ output: ExportOutput) {
        output.append(rows == 0 ? "]\n" : "\n]\n")
    }
}

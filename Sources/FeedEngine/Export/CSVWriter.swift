import FeedKit

/// RFC 4180 CSV: a header row of the field names, then one record per row, fields separated by
/// commas and records ended by CRLF.
///
/// A field holding a comma, a double quote, CR or LF is enclosed in double quotes, with its
/// quotes doubled. `null` is an empty field and an empty string is `""`, so the two stay apart
/// for readers that care. Booleans are `true` / `false`, reals their shortest round-trip form
/// (empty for NaN and infinities), decimals their exact text, JSON columns their text.
public struct CSVWriter: ExportWriter {
    private let fields: [ExportField]

    public init(fields: [ExportField]) { self.fields = fields }

    public mutating func begin(_ output: ExportOutput) throws(ExportError) {
        for (index, field) in fields.enumerated() {
            if index > 0 { output.append(UInt8(ascii: ",")) }
            Self.writeField(field.name, to: output)
        }
        output.append("\r\n")
    }

    public mutating func write(_ row: [FieldValue], to output: ExportOutput) throws(ExportError) {
        for index in fields.indices {
            if index > 0 { output.append(UInt8(ascii: ",")) }
            switch row[index] {
            case .null: break
            case .bool(let flag): output.append(flag ? "true" : "false")
            case .integer(let number):
                output.append(fields[index].type == .boolean ? (number != 0 ? "true" : "false") : String(number))
            case .real(let number): if number.isFinite { output.append(number.description) }
            case .text(let text): Self.writeField(text, to: output)
            }
        }
        output.append("\r\n")
        try output.flushIfNeeded()
    }

    public mutating func end(_ output: ExportOutput) {}

    /// Appends `text`, quoted when it holds a comma, quote, CR or LF or is empty.
    static func writeField(_ text: String, to output: ExportOutput) {
        var text = text
        text.withUTF8 { bytes in
            let needsQuotes =
                bytes.isEmpty
                || bytes.contains {
                    $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\n")
                        || $0 == UInt8(ascii: "\r")
                }
            guard needsQuotes else {
                output.append(bytes)
                return
            }
            output.append(UInt8(ascii: "\""))
            for byte in bytes {
                if byte == UInt8(ascii: "\"") { output.append(byte) }
                output.append(byte)
            }
            output.append(UInt8(ascii: "\""))
        }
    }
}

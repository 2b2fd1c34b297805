import FeedKit

/// Writes a row as a compact JSON object, each value typed by its column:
///
/// | column type | JSON |
/// |---|---|
/// | integer | number |
/// | real | number, shortest round-trip form; `null` for NaN and infinities |
/// | boolean | `true` / `false` (stored 1 / 0) |
/// | decimal | string holding the exact decimal (`"1.0735"`), so no digit is lost to binary floating point |
/// | text, timestamp | string, UTF-8 as stored, escaped per RFC 8259 |
/// | json | the document embedded (re-serialized compactly); a string if the stored text is not valid JSON |
///
/// `null` is `null` in every column. An encoder of deleted rows starts each object with
/// `"_deleted":true`.
package struct JSONRowEncoder {
    package let fields: [ExportField]
    /// `"name":` of each field, escaped once.
    private let keys: [[UInt8]]
    /// Whether the rows are deleted ones, whose objects start with `"_deleted":true`.
    private let deleted: Bool

    package init(fields: [ExportField], deleted: Bool = false) {
        self.fields = fields
        self.deleted = deleted
        keys = fields.map { field in
            var key = ""
            JSONValue.writeString(field.name, to: &key)
            return Array((key + ":").utf8)
        }
    }

    package func encode(_ row: [FieldValue], to output: ExportOutput) {
        output.append(deleted ? #"{"_deleted":true"# : "{")
        for index in fields.indices {
            if index > 0 || deleted { output.append(UInt8(ascii: ",")) }
            output.append(keys[index])
            Self.encode(row[index], type: fields[index].type, to: output)
        }
        output.append(UInt8(ascii: "}"))
    }

    package static func encode(_ value: FieldValue, type: ColumnType, to output: ExportOutput) {
        switch value {
        case .null:
            output.append("null")
        case .bool(let flag):
            output.append(flag ? "true" : "false")
        case .integer(let number):
            switch type {
            case .boolean: output.append(number != 0 ? "true" : "false")
            case .decimal: writeString(String(number), to: output)
            default: output.append(String(number))
            }
        case .real(let number):
            if type == .decimal {
                writeString(number.description, to: output)
            } else {
                output.append(number.isFinite ? number.description : "null")
            }
        case .text(let text):
            if type == .json, let document = try? JSONParser.parse(text) {
                output.append(document.canonical.jsonText)
            } else {
                writeString(text, to: output)
            }
        }
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// Appends `text` as a JSON string literal (RFC 8259): `"` `\` and control characters
    /// escaped, everything else (all non-ASCII text) as its UTF-8 bytes.
    package static func writeString(_ text: String, to output: ExportOutput) {
        output.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { bytes in
            var start = 0
            for index in bytes.indices {
                let byte = bytes[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                output.append(UnsafeBufferPointer(rebasing: bytes[start..<index]))
                output.append(UInt8(ascii: "\\"))
                switch byte {
                case UInt8(ascii: "\""): output.append(UInt8(ascii: "\""))
                case UInt8(ascii: "\\"): output.append(UInt8(ascii: "\\"))
                case UInt8(ascii: "\n"): output.append(UInt8(ascii: "n"))
                case UInt8(ascii: "\r"): output.append(UInt8(ascii: "r"))
                case UInt8(ascii: "\t"): output.append(UInt8(ascii: "t"))
                default:
                    output.append("u00")
                    output.append(hexDigits[Int(byte >> 4)])
                    output.append(hexDigits[Int(byte & 0xf)])
                }
                start = index + 1
            }
            output.append(UnsafeBufferPointer(rebasing: bytes[start...]))
        }
        output.append(UInt8(ascii: "\""))
    }
}

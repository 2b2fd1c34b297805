import FeedKit

/// RFC 4180 CSV: a header row of the field names, then one record per row, fields separated by
/// commas and records ended by CRLF.
///
/// A field holding a comma, a double quote, CR or LF is enclosed in double quotes, with its
/// quotes doubled. `null` is an empty field and an empty string is `""`, so the two stay apart
/// for readers that care. Booleans are `true` / `false`, reals their shortest round-trip form
/// (empty for NaN and infinities), decimals their exact text, JSON columns their text.
///
/// With deleted rows, a last column `_deleted` is empty for rows and `true` for deleted rows,
/// which hold only the key fields, `_feed`, `_key` and `_run` among the columns written.
///
/// With ``Formulas/neutralized``, a text cell that a spreadsheet would read as a formula gets a
/// leading `'` (see ``Formulas``).
public struct CSVWriter: ExportWriter {
    /// What happens to text cells that spreadsheets read as formulas.
    public enum Formulas: String, Sendable, CaseIterable {
        /// Every cell as it is stored: the file is the data, for programs that read CSV.
        case verbatim
        /// A text cell beginning with `=`, `+`, `-`, `@`, a tab or a carriage return starts with
        /// a `'` instead, so a spreadsheet shows it as text rather than running it (an API's
        /// `=HYPERLINK(...)` or `@SUM(...)`, say). Numbers, booleans and JSON cells are kept.
        case neutralized
    }

    private let fields: [ExportField]
    private let formulas: Formulas
    /// For each field, its index in the deleted rows' fields, if they have it; `nil` when the
    /// export has no deleted rows (and so no `_deleted` column).
    private let deletedIndices: [Int?]?

    public init(fields: [ExportField], deletedFields: [ExportField]? = nil, formulas: Formulas = .verbatim) {
        self.fields = fields
        self.formulas = formulas
        deletedIndices = deletedFields.map { deleted in
            fields.map { field in deleted.firstIndex { $0.name == field.name } }
        }
    }

    public mutating func begin(_ output: ExportOutput) throws(ExportError) {
        for (index, field) in fields.enumerated() {
            if index > 0 { output.append(UInt8(ascii: ",")) }
            Self.writeField(field.name, to: output)
        }
        if deletedIndices != nil { output.append(",_deleted") }
        output.append("\r\n")
    }

    public mutating func write(_ row: [FieldValue], to output: ExportOutput) throws(ExportError) {
        try write(row, deleted: false, to: output)
    }

    public mutating func writeDeleted(_ tombstone: [FieldValue], to output: ExportOutput) throws(ExportError) {
        let row = (deletedIndices ?? []).map { index in index.map { tombstone[$0] } ?? .null }
        try write(row, deleted: true, to: output)
    }

    private func write(_ row: [FieldValue], deleted: Bool, to output: ExportOutput) throws(ExportError) {
        for index in fields.indices {
            if index > 0 { output.append(UInt8(ascii: ",")) }
            switch row[index] {
            case .null: break
            case .bool(let flag): output.append(flag ? "true" : "false")
            case .integer(let number):
                output.append(fields[index].type == .boolean ? (number != 0 ? "true" : "false") : String(number))
            case .real(let number): if number.isFinite { output.append(number.description) }
            case .text(let text):
                if fields[index].type == .json, let document = try? JSONParser.parse(text) {
                    Self.writeField(document.canonical.jsonText, to: output)
                } else if formulas == .neutralized, Self.readsAsFormula(text) {
                    Self.writeField("'" + text, to: output)
                } else {
                    Self.writeField(text, to: output)
                }
            }
        }
        if deletedIndices != nil { output.append(deleted ? ",true" : ",") }
        output.append("\r\n")
        try output.flushIfNeeded()
    }

    public mutating func end(_ output: ExportOutput) {}

    /// Whether a spreadsheet would read a cell beginning like `text` as a formula.
    static func readsAsFormula(_ text: String) -> Bool {
        guard let first = text.utf8.first else { return false }
        return [UInt8(ascii: "="), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "@"), 0x09, 0x0D].contains(first)
    }

    /// Appends `text`, quoted when it holds a comma, quote, CR or LF or is empty.
    package static func writeField(_ text: String, to output: ExportOutput) {
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

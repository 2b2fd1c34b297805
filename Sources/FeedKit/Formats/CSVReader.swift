import Foundation

/// How a CSV document is written.
public struct CSVDialect: Sendable, Hashable {
    /// The byte between fields: `,` by default, `;` or a tab in some locales.
    public var delimiter: UInt8
    /// The byte that quotes a field; doubled inside one, it stands for itself.
    public var quote: UInt8
    /// Whether the first row names the columns. Without one, columns are named by position,
    /// `"1"`, `"2"`, ...
    public var header: Bool
    /// The document's encoding (such as `ISO-8859-1`), when it is not UTF-8 and has no byte order mark.
    public var encoding: String?

    /// A dialect; by default comma-separated, double-quoted, with a header row, in UTF-8.
    public init(
        delimiter: UInt8 = UInt8(ascii: ","), quote: UInt8 = UInt8(ascii: "\""), header: Bool = true,
        encoding: String? = nil
    ) {
        self.delimiter = delimiter
        self.quote = quote
        self.header = header
        self.encoding = encoding
    }

    /// The encodings a dialect may name, for messages.
    public static let encodingNames = TextEncoding.names

    /// Whether `name` is an encoding a dialect may name.
    public static func readsEncoding(_ name: String) -> Bool { TextEncoding.isKnown(name) }
}

/// Reads a CSV document (RFC 4180, with the dialect's delimiter, quote and encoding) into the
/// tree a JSON response gives (``JSONValue``): a list with one object per row, its members
/// named by the header row, in column order.
///
/// Every value is a string, with its exact characters (`310.70` stays `310.70`); an empty field
/// is `null`, and a quoted empty field (`""`) the empty string. Rows end with a line feed, a
/// carriage return and line feed, or a carriage return; a quoted field may span lines. Empty
/// lines are skipped.
public enum CSVReader {
    /// Parses `data`.
    ///
    /// - Throws: ``CSVReadError`` naming the line of the first problem: a row with more fields
    ///   than the header, a quote that is not closed, a header that names a column twice.
    public static func parse(_ data: Data, dialect: CSVDialect = CSVDialect()) throws(CSVReadError) -> JSONValue {
        let bytes: [UInt8]
        do {
            bytes = try TextEncoding.utf8(data, declared: dialect.encoding)
        } catch {
            throw CSVReadError(line: 1, message: error.message)
        }
        var rows: [JSONValue] = []
        var names: [String]?
        var scanner = CSVScanner(bytes: bytes, dialect: dialect)
        while let (line, fields) = try scanner.nextRow() {
            guard dialect.header else {
                rows.append(.object(JSONObject(fields.enumerated().map { (String($0.offset + 1), $0.element) })))
                continue
            }
            guard let columns = names else {
                names = try header(fields, line: line)
                continue
            }
            guard fields.count <= columns.count else {
                throw CSVReadError(
                    line: line, message: "the row has \(fields.count) fields, the header \(columns.count)")
            }
            rows.append(.object(JSONObject(fields.enumerated().map { (columns[$0.offset], $0.element) })))
        }
        return .array(rows)
    }

    /// The column names of a header row.
    private static func header(_ fields: [JSONValue], line: Int) throws(CSVReadError) -> [String] {
        var names: [String] = []
        var seen = Set<String>(minimumCapacity: fields.count)
        for (position, field) in fields.enumerated() {
            let name = field.stringValue ?? ""
            guard !name.isEmpty else { throw CSVReadError(line: line, message: "column \(position + 1) has no name") }
            guard seen.insert(name).inserted else {
                throw CSVReadError(line: line, message: "the header names the column '\(name)' twice")
            }
            names.append(name)
        }
        return names
    }
}

/// A CSV document that cannot be read, with the line of the problem.
public struct CSVReadError: Error, Sendable, Hashable, CustomStringConvertible {
    /// 1-based line of the problem (of the row's first line).
    public var line: Int
    /// What is wrong at that line.
    public var message: String

    /// An error at the 1-based `line`, saying `message`.
    public init(line: Int, message: String) {
        self.line = line
        self.message = message
    }

    /// The message with its line, as a ``PayloadError`` quotes it.
    public var description: String { "CSV at line \(line): \(message)" }
}

/// The rows of a CSV document's UTF-8 bytes, one at a time.
private struct CSVScanner {
    let bytes: [UInt8]
    let dialect: CSVDialect
    var index = 0
    var line = 1

    init(bytes: [UInt8], dialect: CSVDialect) {
        self.bytes = bytes
        self.dialect = dialect
    }

    /// The next non-empty row and the line it starts on, or `nil` at the end.
    mutating func nextRow() throws(CSVReadError) -> (Int, [JSONValue])? {
        while index < bytes.count, bytes[index] == 0x0A || bytes[index] == 0x0D { endLine() }
        guard index < bytes.count else { return nil }
        let start = line
        var fields: [JSONValue] = []
        while true {
            fields.append(try field(rowStart: start))
            guard index < bytes.count else { break }
            if bytes[index] == dialect.delimiter {
                index += 1
                continue
            }
            endLine()
            break
        }
        return (start, fields)
    }

    /// One field, up to the delimiter or the end of the line.
    private mutating func field(rowStart: Int) throws(CSVReadError) -> JSONValue {
        guard index < bytes.count, bytes[index] == dialect.quote else {
            let start = index
            while index < bytes.count, bytes[index] != dialect.delimiter, bytes[index] != 0x0A, bytes[index] != 0x0D {
                index += 1
            }
            return start == index ? .null : .string(String(decoding: bytes[start..<index], as: UTF8.self))
        }
        index += 1
        var value: [UInt8] = []
        while true {
            guard index < bytes.count else {
                throw CSVReadError(line: rowStart, message: "a quoted field is not closed")
            }
            let byte = bytes[index]
            if byte == dialect.quote {
                if index + 1 < bytes.count, bytes[index + 1] == dialect.quote {
                    value.append(byte)
                    index += 2
                    continue
                }
                index += 1
                break
            }
            if byte == 0x0A { line += 1 }
            value.append(byte)
            index += 1
        }
        guard index == bytes.count || bytes[index] == dialect.delimiter || bytes[index] == 0x0A || bytes[index] == 0x0D
        else {
            throw CSVReadError(line: line, message: "a quoted field is followed by text before the next delimiter")
        }
        return .string(String(decoding: value, as: UTF8.self))
    }

    /// Steps over one line ending (LF, CR LF or CR).
    private mutating func endLine() {
        if bytes[index] == 0x0D, index + 1 < bytes.count, bytes[index + 1] == 0x0A { index += 1 }
        index += 1
        line += 1
    }
}

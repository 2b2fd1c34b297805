import Foundation

/// Reads an XML document into the same tree a JSON response gives (``JSONValue``), so that the
/// json adapter's records, fields and pagination work on XML APIs unchanged.
///
/// The tree follows the conventions most tools share (xmltodict's among them):
///
/// - the document is an object with one member, the root element: `{"Envelope": {...}}`;
/// - an element's attributes are members named `@name`, its child elements members named after
///   them, in the order they first appear; a name that repeats becomes a list, in document order;
/// - an element with neither attributes nor children is its text (`<name>ECB</name>` is
///   `"ECB"`), or `null` when it has none; otherwise its text, if any, is the member `#text`;
/// - names are local: a namespace prefix is dropped (`gesmes:Envelope` is `Envelope`), and
///   `xmlns` declarations are not attributes;
/// - text and attribute values keep their exact characters (`310.70` stays `310.70`), entities
///   and character references decoded; text has the white space around it trimmed, and white
///   space between elements is not text.
///
/// Every value is a string: a field that reads a number from XML converts its text.
///
/// The encoding is UTF-8 unless a byte order mark or the declaration says otherwise
/// (`encoding="ISO-8859-1"`, `windows-1252`, `UTF-16`...). A DOCTYPE is skipped; entities it
/// declares are not expanded (using one is an error), so a document cannot make the reader
/// expand entities without bound.
///
/// Written for Feedwork rather than taken from Foundation's `XMLParser`, which on Linux links
/// libxml2 into every binary that imports it (see docs/json/xml-csv.md for the figures).
public enum XMLReader {
    /// The deepest nesting of elements read (the root is level 1), the same bound as JSON's
    /// (``JSONParser/maximumDepth``): a deeper document is an error, not a tree that the code
    /// walking it (and freeing it) would overflow the stack on.
    public static let maximumDepth = JSONParser.maximumDepth

    /// Parses `data`.
    ///
    /// - Throws: ``XMLReadError`` with the line and column of the first problem.
    public static func parse(_ data: Data) throws(XMLReadError) -> JSONValue {
        let utf8: [UInt8]
        do {
            utf8 = try TextEncoding.utf8(data, declared: declaredEncoding(data))
        } catch {
            throw XMLReadError(line: 1, column: 1, message: error.message)
        }
        var scanner = XMLScanner(bytes: utf8)
        return try scanner.document()
    }

    /// The `encoding` of a leading `<?xml ...?>` declaration.
    private static func declaredEncoding(_ data: Data) -> String? {
        let head = data.prefix(256)
        guard head.starts(with: Array("<?xml".utf8)), let end = head.firstIndex(of: UInt8(ascii: ">")) else {
            return nil
        }
        let declaration = String(decoding: head[..<end], as: UTF8.self)
        guard let range = declaration.range(of: "encoding") else { return nil }
        var rest = declaration[range.upperBound...].drop { $0 == " " || $0 == "=" || $0 == "\t" }
        guard let quote = rest.first, quote == "\"" || quote == "'" else { return nil }
        rest = rest.dropFirst()
        return String(rest.prefix { $0 != quote })
    }
}

/// A document that is not well-formed XML, with where the problem is.
public struct XMLReadError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The 1-based line of the problem.
    public var line: Int
    /// The 1-based column of the problem, in characters.
    public var column: Int
    /// What is wrong at that place.
    public var message: String

    /// An error at the 1-based `line` and `column`, saying `message`.
    public init(line: Int, column: Int, message: String) {
        self.line = line
        self.column = column
        self.message = message
    }

    /// The message with its line and column, as a ``PayloadError`` quotes it.
    public var description: String { "XML at line \(line), column \(column): \(message)" }
}

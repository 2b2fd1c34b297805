import FeedKit

extension JSONAdapter {
    /// `format: xml`, `format: csv`, or a mapping with a CSV file's dialect:
    /// `{ type: csv, delimiter: ";", quote: "'", header: false, encoding: latin1 }`.
    /// JSON is the default.
    public struct FormatSpec: Decodable, Sendable, Hashable {
        /// `json`, `xml` or `csv`.
        public var type: String
        /// `csv` only: one character between fields (`,` by default; `\t` for a tab).
        public var delimiter: String?
        /// `csv` only: the quoting character (`"` by default).
        public var quote: String?
        /// `csv` only: whether the first row names the columns (`true` by default).
        public var header: Bool?
        /// `csv` only: the file's encoding when it is not UTF-8 and has no byte order mark.
        public var encoding: String?

        enum CodingKeys: String, CodingKey { case type, delimiter, quote, header, encoding }

        public init(type: String) { self.type = type }

        /// Reads the short form or the mapping; CSV keys are read only for `type: csv`, so that
        /// `delimiter` on an XML feed is an unknown key with its line and column.
        public init(from decoder: any Decoder) throws {
            if let short = try? decoder.singleValueContainer().decode(String.self) {
                type = short
                return
            }
            let container = try decoder.container(keyedBy: CodingKeys.self)
            type = try container.decode(String.self, forKey: .type)
            guard type == "csv" else { return }
            delimiter = try container.decodeIfPresent(String.self, forKey: .delimiter)
            quote = try container.decodeIfPresent(String.self, forKey: .quote)
            header = try container.decodeIfPresent(Bool.self, forKey: .header)
            encoding = try container.decodeIfPresent(String.self, forKey: .encoding)
        }
    }
}

/// The format of a feed's responses, checked.
enum ResponseFormat: Sendable, Hashable {
    case json
    case xml
    case csv(CSVDialect)

    /// Whether every value arrives as text, so numbers and booleans are read from strings.
    var isText: Bool { self != .json }

    /// The format `spec` names.
    ///
    /// - Throws: ``OptionError`` at the key at fault.
    init(_ spec: JSONAdapter.FormatSpec?) throws(OptionError) {
        guard let spec else {
            self = .json
            return
        }
        switch spec.type {
        case "json": self = .json
        case "xml": self = .xml
        case "csv":
            var dialect = CSVDialect(header: spec.header ?? true, encoding: spec.encoding)
            if let text = spec.delimiter { dialect.delimiter = try Self.byte(text, "delimiter", default: ",") }
            if let text = spec.quote { dialect.quote = try Self.byte(text, "quote", default: "\"") }
            guard dialect.delimiter != dialect.quote else {
                throw OptionError("the delimiter and the quote must differ", at: ["format", "quote"])
            }
            if let encoding = spec.encoding, !CSVDialect.readsEncoding(encoding) {
                throw OptionError(
                    "unknown encoding '\(encoding)'; use one of \(CSVDialect.encodingNames)",
                    at: ["format", "encoding"])
            }
            self = .csv(dialect)
        default:
            throw OptionError("format must be json, xml or csv, not '\(spec.type)'", at: ["format"])
        }
    }

    /// One ASCII character other than a line break or white space but the tab.
    private static func byte(_ text: String, _ key: String, default: String) throws(OptionError) -> UInt8 {
        let text = text == "\\t" ? "\t" : text
        guard text.utf8.count == 1, let byte = text.utf8.first, byte != 0x0A, byte != 0x0D, byte != 0x20 else {
            throw OptionError(
                "\(key) must be one character, such as '\(`default`)' or '\\t' for a tab, not '\(text)'",
                at: ["format", key])
        }
        return byte
    }
}

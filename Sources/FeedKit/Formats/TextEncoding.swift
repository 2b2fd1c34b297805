import Foundation

/// The bytes of a text document (XML, CSV) as UTF-8, whatever encoding it came in.
enum TextEncoding {
    /// The encodings a document may declare, by their lower-cased names.
    private static let known: [String: (String.Encoding, String)] = [
        "utf-8": (.utf8, "UTF-8"), "utf8": (.utf8, "UTF-8"),
        "us-ascii": (.ascii, "US-ASCII"), "ascii": (.ascii, "US-ASCII"),
        "iso-8859-1": (.isoLatin1, "ISO-8859-1"), "latin1": (.isoLatin1, "ISO-8859-1"),
        "latin-1": (.isoLatin1, "ISO-8859-1"), "iso_8859-1": (.isoLatin1, "ISO-8859-1"),
        "windows-1252": (.windowsCP1252, "windows-1252"), "cp1252": (.windowsCP1252, "windows-1252"),
        "utf-16": (.utf16, "UTF-16"),
    ]

    /// The names ``utf8(_:declared:)`` reads, for messages.
    static let names = "UTF-8, UTF-16, US-ASCII, ISO-8859-1 (latin1) and windows-1252"

    /// Whether `name` is an encoding ``utf8(_:declared:)`` reads.
    static func isKnown(_ name: String) -> Bool { known[name.lowercased()] != nil }

    /// `data` as UTF-8 bytes, without a byte order mark.
    ///
    /// A UTF-8 or UTF-16 byte order mark decides the encoding; else `declared`; else UTF-8.
    ///
    /// - Throws: a message saying which encoding is unknown, or that the bytes are not in it.
    static func utf8(_ data: Data, declared: String?) throws(TextEncodingError) -> [UInt8] {
        let bytes = [UInt8](data)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { return try validated(Array(bytes.dropFirst(3))) }
        if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) {
            return try converted(data, from: .utf16, name: "UTF-16")
        }
        guard let declared else { return try validated(bytes) }
        guard let (encoding, name) = known[declared.lowercased()] else {
            throw TextEncodingError(message: "the encoding '\(declared)' is not one Feedwork reads (\(names))")
        }
        return encoding == .utf8 ? try validated(bytes) : try converted(data, from: encoding, name: name)
    }

    private static func validated(_ bytes: [UInt8]) throws(TextEncodingError) -> [UInt8] {
        guard String(validating: bytes, as: UTF8.self) != nil else {
            throw TextEncodingError(message: "the document is not valid UTF-8; say which encoding it is in")
        }
        return bytes
    }

    private static func converted(_ data: Data, from encoding: String.Encoding, name: String)
        throws(TextEncodingError) -> [UInt8]
    {
        guard let text = String(data: data, encoding: encoding) else {
            throw TextEncodingError(message: "the document is not valid \(name)")
        }
        let utf8 = Array(text.utf8)
        return utf8.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(utf8.dropFirst(3)) : utf8
    }
}

/// Bytes that are not in the encoding a document is read in.
struct TextEncodingError: Error {
    var message: String
}

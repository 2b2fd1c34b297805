import FeedKit
import FeedStore
import Foundation

/// Where a keyset page ends: the sort values of its last row (``Keyset/after``), as an opaque
/// URL-safe token (base64url of a JSON array) that the next page's request carries.
public struct PageCursor: Sendable, Hashable {
    public var values: [FieldValue]

    public init(values: [FieldValue]) { self.values = values }

    /// The token of this cursor.
    public var token: String {
        var json = "["
        for (index, value) in values.enumerated() {
            if index > 0 { json += "," }
            switch value {
            case .null: json += "null"
            case .integer(let number): json += "{\"i\":\"\(number)\"}"
            case .real(let number): json += "{\"r\":\"\(number)\"}"
            case .bool(let flag): json += "{\"i\":\"\(flag ? 1 : 0)\"}"
            case .text(let text): json += "{\"t\":" + JSONValue.string(text).jsonText + "}"
            }
        }
        json += "]"
        return Data(json.utf8).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// Reads a token made by ``token``.
    ///
    /// - Throws: a usage ``ExportError`` for text that is not such a token.
    public init(token: String) throws(ExportError) {
        var base64 = token.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        let invalid = ExportError.usage("cursor '\(token.prefix(40))': not a cursor of this server")
        guard let data = Data(base64Encoded: base64), let text = String(data: data, encoding: .utf8),
            let document = try? JSONParser.parse(text), let items = document.arrayValue
        else { throw invalid }
        var values: [FieldValue] = []
        for item in items {
            if case .null = item {
                values.append(.null)
            } else if let text = item["t"]?.stringValue {
                values.append(.text(text))
            } else if let text = item["i"]?.stringValue, let number = Int64(text) {
                values.append(.integer(number))
            } else if let text = item["r"]?.stringValue, let number = Double(text) {
                values.append(.real(number))
            } else {
                throw invalid
            }
        }
        self.values = values
    }
}

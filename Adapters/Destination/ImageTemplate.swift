import FeedKit

/// An image URL made from an offer's fields: `https://images.kiwi.com/photos/600x330/{mapIdto}.jpg`.
///
/// Each `{name}` is replaced by the offer's top-level field `name` (a string or a number),
/// percent-encoded. When a named field is absent the offer has no image.
struct ImageTemplate: Sendable, Hashable {
    static let kiwi = "https://images.kiwi.com/photos/600x330/{mapIdto}.jpg"

    enum Part: Sendable, Hashable {
        case literal(String)
        case field(String)
    }

    let parts: [Part]

    /// - Throws: ``OptionError`` at `image_template` for an unclosed or empty `{}`.
    init(_ template: String) throws {
        var parts: [Part] = []
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{") {
            if open > rest.startIndex { parts.append(.literal(String(rest[..<open]))) }
            guard let close = rest[open...].firstIndex(of: "}") else {
                throw OptionError("'{' without '}' in image_template '\(template)'", at: ["image_template"])
            }
            let name = String(rest[rest.index(after: open)..<close])
            guard !name.isEmpty else {
                throw OptionError("empty '{}' in image_template '\(template)'", at: ["image_template"])
            }
            parts.append(.field(name))
            rest = rest[rest.index(after: close)...]
        }
        if !rest.isEmpty { parts.append(.literal(String(rest))) }
        self.parts = parts
    }

    /// The URL for `offer`, or `nil` when a field it names is absent or not a string or number.
    func render(_ offer: JSONValue) -> String? {
        var url = ""
        for part in parts {
            switch part {
            case .literal(let text):
                url += text
            case .field(let name):
                guard let value = offer[name], let text = value.stringValue ?? value.numberText, !text.isEmpty else {
                    return nil
                }
                url += URLQuery.encode(text)
            }
        }
        return url
    }
}

import FeedKit

/// How a `timestamp` field is written in the API; every format is stored as ISO 8601 UTC.
enum TimestampFormat: Sendable, Hashable {
    /// `2024-01-31T10:00:00Z`, `2024-01-31T10:00:00.5+01:00`, `2024-01-31`.
    case iso8601
    /// Seconds since 1970, a number (fractions kept to the millisecond) or a numeric string.
    case unixSeconds
    /// Milliseconds since 1970.
    case unixMilliseconds
    /// A pattern such as `yyyy-MM-dd HH:mm:ss` or `dd/MM/yyyy`, read as UTC.
    case pattern([Token])

    enum Token: Sendable, Hashable {
        case literal(Character)
        case year, month, day, hour, minute, second
    }

    /// Parses the `format:` option; `nil` for a pattern with no date fields.
    init?(option: String) {
        switch option {
        case "iso8601", "iso": self = .iso8601
        case "unix": self = .unixSeconds
        case "unix_ms": self = .unixMilliseconds
        default:
            var tokens: [Token] = []
            var rest = Substring(option)
            let table: [(String, Token)] = [
                ("yyyy", .year), ("MM", .month), ("dd", .day), ("HH", .hour), ("mm", .minute), ("ss", .second),
            ]
            outer: while let first = rest.first {
                for (text, token) in table where rest.hasPrefix(text) {
                    tokens.append(token)
                    rest = rest.dropFirst(text.count)
                    continue outer
                }
                if first.isLetter { return nil }
                tokens.append(.literal(first))
                rest = rest.dropFirst()
            }
            guard tokens.contains(.year), tokens.contains(.month), tokens.contains(.day) else { return nil }
            self = .pattern(tokens)
        }
    }

    /// `value` as an ISO 8601 UTC timestamp, or `nil` when it does not follow the format.
    func normalize(_ value: JSONValue) -> String? {
        switch self {
        case .iso8601:
            guard case .string(let text) = value else { return nil }
            if Self.isCanonical(text), ISO8601.parse(text) != nil { return text }
            return ISO8601.normalized(text)
        case .unixSeconds, .unixMilliseconds:
            let text: String
            switch value {
            case .number(let number): text = number
            case .string(let string): text = string
            default: return nil
            }
            guard let decimal = ExactDecimal(text) else { return nil }
            let scale = self == .unixSeconds ? 3 : 0
            // Finer fractions than a millisecond are rounded.
            guard
                let milliseconds = decimal.minorUnits(scale: scale)
                    ?? Double(text).map({ ($0 * (scale == 3 ? 1000 : 1)).rounded() }).flatMap({ Int64(exactly: $0) })
            else { return nil }
            return Self.render(milliseconds: milliseconds)
        case .pattern(let tokens):
            guard case .string(let text) = value else { return nil }
            return Self.parse(text, tokens: tokens)
        }
    }

    /// Whether `text` is already `YYYY-MM-DDTHH:MM:SSZ`, the stored form.
    private static func isCanonical(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            bytes.count == 20 && bytes[4] == 0x2D && bytes[7] == 0x2D && bytes[10] == 0x54 && bytes[13] == 0x3A
                && bytes[16] == 0x3A && bytes[19] == 0x5A
        }
    }

    private static func render(milliseconds: Int64) -> String {
        let seconds = milliseconds >= 0 ? milliseconds / 1000 : (milliseconds - 999) / 1000
        let remainder = milliseconds - seconds * 1000
        let civil = CivilTime(unixSeconds: seconds).iso8601
        guard remainder != 0 else { return civil }
        let fraction = String(remainder)
        return civil.dropLast() + "." + String(repeating: "0", count: 3 - fraction.count) + fraction + "Z"
    }

    private static func parse(_ text: String, tokens: [Token]) -> String? {
        var characters = Substring(text)
        var fields = (year: 0, month: 0, day: 0, hour: 0, minute: 0, second: 0)
        func number(_ width: Int) -> Int? {
            let digits = characters.prefix(width)
            guard digits.count == width, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let value = Int(digits)
            else { return nil }
            characters = characters.dropFirst(width)
            return value
        }
        for token in tokens {
            switch token {
            case .literal(let character):
                guard characters.first == character else { return nil }
                characters = characters.dropFirst()
            case .year: guard let value = number(4) else { return nil }; fields.year = value
            case .month: guard let value = number(2) else { return nil }; fields.month = value
            case .day: guard let value = number(2) else { return nil }; fields.day = value
            case .hour: guard let value = number(2) else { return nil }; fields.hour = value
            case .minute: guard let value = number(2) else { return nil }; fields.minute = value
            case .second: guard let value = number(2) else { return nil }; fields.second = value
            }
        }
        guard characters.isEmpty,
            let seconds = CivilTime.unixSeconds(
                year: fields.year, month: fields.month, day: fields.day, hour: fields.hour, minute: fields.minute,
                second: fields.second)
        else { return nil }
        return CivilTime(unixSeconds: seconds).iso8601
    }
}

import FeedKit

/// How a `timestamp` field is written in the API; every format is stored as ISO 8601 UTC.
enum TimestampFormat: Sendable, Hashable {
    /// `2024-01-31T10:00:00Z`, `2024-01-31T10:00:00.5+01:00`, `2024-01-31`, and
    /// `2024-01-31 10:00:00` (a space for `T`; no zone is UTC).
    case iso8601
    /// Seconds since 1970, a number (fractions kept to the microsecond) or a numeric string.
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
            return Self.normalizedISO(text)
        case .unixSeconds, .unixMilliseconds:
            let text: String
            switch value {
            case .number(let number): text = number
            case .string(let string): text = string
            default: return nil
            }
            guard let decimal = ExactDecimal(text) else { return nil }
            let scale = self == .unixSeconds ? 6 : 3
            // Finer fractions than a microsecond are rounded.
            guard
                let microseconds = decimal.minorUnits(scale: scale)
                    ?? Double(text).map({ ($0 * (scale == 6 ? 1_000_000 : 1000)).rounded() }).flatMap({
                        Int64(exactly: $0)
                    })
            else { return nil }
            return Self.render(microseconds: microseconds)
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

    /// `microseconds` since 1970 as stored: `2024-01-31T10:00:00Z`, with a fraction of at least
    /// three digits and at most six when there is one (`.500`, `.123456`).
    static func render(microseconds: Int64) -> String {
        let seconds = microseconds >= 0 ? microseconds / 1_000_000 : (microseconds - 999_999) / 1_000_000
        return render(seconds: seconds, fraction: String(microseconds - seconds * 1_000_000), width: 6)
    }

    /// Whole `seconds` and a fraction of a second written with `width` digits (`fraction` may
    /// have fewer: its leading zeros are left out).
    private static func render(seconds: Int64, fraction: String, width: Int) -> String {
        let civil = CivilTime(unixSeconds: seconds).iso8601
        var digits = String(repeating: "0", count: max(0, width - fraction.count)) + fraction
        while digits.last == "0" { digits.removeLast() }
        guard !digits.isEmpty else { return civil }
        if digits.count < 3 { digits += String(repeating: "0", count: 3 - digits.count) }
        return civil.dropLast() + "." + digits + "Z"
    }

    /// An ISO 8601 text as stored, in UTC: a space may stand for `T`, a date-time without a
    /// zone is read as UTC, and a fraction of a second is kept to the microsecond (finer digits
    /// are cut, never rounded into the next second).
    static func normalizedISO(_ text: String) -> String? {
        var bytes = Array(text.utf8)
        var fraction = ""
        if bytes.count > 20, bytes[19] == UInt8(ascii: ".") {
            var end = 20
            while end < bytes.count, (0x30...0x39).contains(bytes[end]) { end += 1 }
            guard end > 20 else { return nil }
            fraction = String(decoding: bytes[20..<min(end, 26)], as: UTF8.self)
            bytes.removeSubrange(19..<end)
        }
        // `2024-02-29 10:00:00`: a date and a time with no zone, as SQL-backed APIs write them.
        if bytes.count == 19 { bytes.append(UInt8(ascii: "Z")) }
        guard let seconds = ISO8601.parse(String(decoding: bytes, as: UTF8.self)) else { return nil }
        return render(seconds: Int64(seconds), fraction: fraction, width: fraction.count)
    }

    /// Microseconds since 1970 of a stored timestamp (``normalizedISO(_:)``'s form), exactly.
    static func microseconds(ofStored text: String) -> Int64? {
        var whole = text
        var fraction = ""
        if let dot = text.firstIndex(of: "."), text.hasSuffix("Z") {
            fraction = String(text[text.index(after: dot)..<text.index(before: text.endIndex)])
            whole = String(text[..<dot]) + "Z"
        }
        guard fraction.count <= 6, fraction.allSatisfy({ $0.isASCII && $0.isNumber }),
            let seconds = ISO8601.parse(whole)
        else { return nil }
        let micro = Int64(fraction + String(repeating: "0", count: 6 - fraction.count)) ?? 0
        return Int64(seconds) * 1_000_000 + micro
    }

    private static func parse(_ text: String, tokens: [Token]) -> String? {
        guard let fields = components(text, tokens: tokens),
            let seconds = CivilTime.unixSeconds(
                year: fields.year, month: fields.month, day: fields.day, hour: fields.hour, minute: fields.minute,
                second: fields.second)
        else { return nil }
        return CivilTime(unixSeconds: seconds).iso8601
    }

    /// The fields `text` gives for `tokens` (0 for those the pattern lacks), or `nil` when it
    /// does not follow the pattern; the values are not checked against the calendar.
    static func components(_ text: String, tokens: [Token])
        -> (year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int)?
    {
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
        return characters.isEmpty ? fields : nil
    }
}

import FeedKit

/// Timestamps written the way an API reads them: an incremental cursor (or a window's bounds)
/// is sent in the cursor field's own format, since an API that writes `2024-02-29 10:00:00`
/// usually accepts only that.
extension TimestampFormat {
    /// `microseconds` since 1970 in this format: ISO 8601 as stored (``render(microseconds:)``),
    /// whole seconds or milliseconds for `unix` and `unix_ms`, and the pattern's fields for a
    /// pattern. Units a format cannot say are cut (rounded down), so what is sent is never past
    /// the value it stands for: the API then serves the records at that instant again rather
    /// than skipping them.
    func text(microseconds: Int64) -> String {
        func floor(_ value: Int64, _ unit: Int64) -> Int64 { value >= 0 ? value / unit : (value - unit + 1) / unit }
        switch self {
        case .iso8601: return Self.render(microseconds: microseconds)
        case .unixSeconds: return String(floor(microseconds, 1_000_000))
        case .unixMilliseconds: return String(floor(microseconds, 1000))
        case .pattern(let tokens):
            let civil = CivilTime(unixSeconds: floor(microseconds, 1_000_000))
            func padded(_ value: Int, _ width: Int) -> String {
                let digits = String(value)
                return String(repeating: "0", count: max(0, width - digits.count)) + digits
            }
            return tokens.map { token -> String in
                switch token {
                case .literal(let character): String(character)
                case .year: padded(civil.year, 4)
                case .month: padded(civil.month, 2)
                case .day: padded(civil.day, 2)
                case .hour: padded(civil.hour, 2)
                case .minute: padded(civil.minute, 2)
                case .second: padded(civil.second, 2)
                }
            }.joined()
        }
    }

    /// Microseconds since 1970 of `text` written in this format, or `nil`.
    func microseconds(of text: String) -> Int64? {
        let value: JSONValue =
            switch self {
            case .unixSeconds, .unixMilliseconds: .number(text)
            case .iso8601, .pattern: .string(text)
            }
        return normalize(value).flatMap(Self.microseconds(ofStored:))
    }
}

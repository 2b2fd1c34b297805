import FeedKit

/// The formats of a `date` field: `iso8601` (`YYYY-MM-DD` exactly: a date-time would need a time
/// zone to become a date) or a pattern of `yyyy`, `MM` and `dd` alone.
extension TimestampFormat {
    /// Whether a `date` field may use the format: ISO 8601, or a pattern without time fields.
    var readsDates: Bool {
        switch self {
        case .iso8601: true
        case .unixSeconds, .unixMilliseconds: false
        case .pattern(let tokens): !tokens.contains { [.hour, .minute, .second].contains($0) }
        }
    }

    /// `text` as a stored date (`YYYY-MM-DD`), or `nil` when it does not follow the format or the
    /// calendar has no such day (`2023-02-29`).
    func date(_ text: String) -> String? {
        switch self {
        case .pattern(let tokens):
            guard let fields = Self.components(text, tokens: tokens) else { return nil }
            return CalendarDate.render(year: fields.year, month: fields.month, day: fields.day)
        default:
            return CalendarDate.normalized(text)
        }
    }

    /// The format's name in a date's messages.
    var dateName: String { self == .iso8601 ? "YYYY-MM-DD" : name }

    /// Why `text`, which ``date(_:)`` refused, is not a date, after the value in a message: that
    /// the calendar has no such day when the text has the format's shape.
    func dateNote(_ text: String) -> String {
        switch self {
        case .pattern(let tokens):
            return Self.components(text, tokens: tokens) != nil ? ", which is not a day of the calendar" : ""
        default:
            return CalendarDate.hasShape(text) ? ", which is not a day of the calendar" : ""
        }
    }
}

import FeedKit
import Foundation

/// ISO 8601 UTC timestamps as the store writes them: `2026-11-21T22:40:01.123Z`.
public enum Timestamp {
    /// `date` with millisecond precision.
    public static func string(_ date: Date) -> String {
        let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
        let seconds = milliseconds >= 0 ? milliseconds / 1000 : (milliseconds - 999) / 1000
        let civil = CivilTime(unixSeconds: seconds)
        let fraction = civil.pad(Int(milliseconds - seconds * 1000), 3)
        return String(civil.iso8601.dropLast()) + ".\(fraction)Z"
    }

    /// Parses the timestamps the store writes, and ISO 8601 in general with `Z` or an offset
    /// (`+01:00` or `+0100`), with or without fractional seconds.
    public static func date(_ text: String) -> Date? {
        ISO8601.parse(text).map { Date(timeIntervalSince1970: $0) }
    }
}

/// A UTC calendar date and time computed from Unix seconds, with no calendar or locale involved.
///
/// Used for ISO 8601 timestamps and date templates, which must not depend on the machine's time
/// zone or ICU data.
public struct CivilTime: Sendable, Hashable {
    /// The year, in UTC.
    public var year: Int
    /// The month, 1 to 12.
    public var month: Int
    /// The day of the month, 1 to 31.
    public var day: Int
    /// The hour, 0 to 23.
    public var hour: Int
    /// The minute, 0 to 59.
    public var minute: Int
    /// The second, 0 to 59 (Unix time has no leap seconds).
    public var second: Int

    /// The UTC date and time of `unixSeconds`.
    public init(unixSeconds: Int64) {
        let days = Int(unixSeconds >= 0 ? unixSeconds / 86_400 : (unixSeconds - 86_399) / 86_400)
        let secondsOfDay = Int(unixSeconds - Int64(days) * 86_400)
        // Howard Hinnant's days-to-civil algorithm.
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        day = dayOfYear - (153 * mp + 2) / 5 + 1
        month = mp < 10 ? mp + 3 : mp - 9
        year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        hour = secondsOfDay / 3600
        minute = secondsOfDay % 3600 / 60
        second = secondsOfDay % 60
    }

    /// Unix seconds of a UTC date and time, or `nil` when a field is out of range.
    public static func unixSeconds(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0)
        -> Int64?
    {
        guard (1...12).contains(month), (1...31).contains(day), (0...23).contains(hour), (0...59).contains(minute),
            (0...60).contains(second)
        else { return nil }
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let mp = month > 2 ? month - 3 : month + 9
        let dayOfYear = (153 * mp + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        // Reject dates such as 31 February, which the arithmetic above would roll over.
        guard CivilTime(unixSeconds: Int64(days) * 86_400).day == day else { return nil }
        return Int64(days) * 86_400 + Int64(hour * 3600 + minute * 60 + second)
    }

    /// `2019-11-05T15:56:59Z`.
    public var iso8601: String {
        "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(hour, 2)):\(pad(minute, 2)):\(pad(second, 2))Z"
    }

    package func pad(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
    }
}

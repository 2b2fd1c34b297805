/// A calendar date as Feedwork stores it: `YYYY-MM-DD`, with no time of day and no time zone
/// (a ``ColumnType/date`` column's value).
///
/// The check is the calendar's own: `2024-02-29` is a date, `2023-02-29` and `2024-04-31` are not.
public enum CalendarDate {
    /// `text` when it is a date of the calendar written `YYYY-MM-DD` (years 0001 to 9999), else `nil`.
    public static func normalized(_ text: String) -> String? {
        let bytes = Array(text.utf8)
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-") else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for index in range {
                guard (0x30...0x39).contains(bytes[index]) else { return nil }
                value = value * 10 + Int(bytes[index] - 0x30)
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10) else { return nil }
        return render(year: year, month: month, day: day)
    }

    /// The date `YYYY-MM-DD` of `year`, `month` and `day`, or `nil` when the calendar has no such
    /// day (31 April, 29 February of a common year) or the year is outside 0001 to 9999.
    public static func render(year: Int, month: Int, day: Int) -> String? {
        guard (1...9999).contains(year), CivilTime.unixSeconds(year: year, month: month, day: day) != nil else {
            return nil
        }
        let civil = CivilTime(unixSeconds: 0)
        return "\(civil.pad(year, 4))-\(civil.pad(month, 2))-\(civil.pad(day, 2))"
    }

    /// Why `text` is not a stored date, for messages: the form it must have, or that the calendar
    /// has no such day.
    public static func problem(_ text: String) -> String {
        hasShape(text) ? "'\(text)' is not a day of the calendar" : "'\(text)' is not a date written YYYY-MM-DD"
    }

    /// Whether `text` is written `DDDD-DD-DD` (digits), whatever their values.
    public static func hasShape(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        return bytes.count == 10
            && bytes.enumerated().allSatisfy {
                $0.offset == 4 || $0.offset == 7 ? $0.element == UInt8(ascii: "-") : (0x30...0x39).contains($0.element)
            }
    }
}

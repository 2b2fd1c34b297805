import FeedKit
import Foundation

/// A five-field cron expression, read in UTC: `minute hour day-of-month month day-of-week`.
///
/// Each field takes `*`, a number, a range `a-b`, a step `*/n` or `a-b/n` or `a/n`, and lists of
/// those separated by commas. Months may be named `jan`...`dec` and weekdays `sun`...`sat`
/// (case ignored); weekday `7` is Sunday like `0`. The shorthands `@hourly`, `@daily`
/// (`@midnight`), `@weekly`, `@monthly` and `@yearly` (`@annually`) are accepted.
///
/// As in Vixie cron, when both day-of-month and day-of-week are restricted (neither starts
/// with `*`), a day matches when either does: `0 6 1 * mon` runs on the 1st and on Mondays.
public struct CronExpression: Sendable, Hashable, CustomStringConvertible {
    /// The text as written.
    public let text: String
    let minutes: Set<Int>
    let hours: Set<Int>
    let daysOfMonth: Set<Int>
    let months: Set<Int>
    /// 0 is Sunday.
    let weekdays: Set<Int>
    let dayOfMonthRestricted: Bool
    let weekdayRestricted: Bool

    /// Why a text is not a cron expression, naming the field at fault.
    public struct ParseError: Error, Sendable, CustomStringConvertible {
        public var description: String
    }

    /// Parses `text`.
    ///
    /// - Throws: ``ParseError`` naming the field and what is wrong with it.
    public init(parsing text: String) throws(ParseError) {
        self.text = text
        let trimmed = text.trimmingSpaces.lowercased()
        let expanded = Self.shorthands[trimmed] ?? trimmed
        if expanded.hasPrefix("@") {
            throw ParseError(
                description: "unknown shorthand '\(trimmed)'; use @hourly, @daily, @weekly, @monthly or @yearly")
        }
        let fields = expanded.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        guard fields.count == 5 else {
            throw ParseError(
                description:
                    "a cron expression has five fields (minute hour day-of-month month day-of-week), not \(fields.count)"
            )
        }
        minutes = try Field.minute.values(fields[0])
        hours = try Field.hour.values(fields[1])
        daysOfMonth = try Field.dayOfMonth.values(fields[2])
        months = try Field.month.values(fields[3])
        weekdays = Set(try Field.weekday.values(fields[4]).map { $0 % 7 })
        dayOfMonthRestricted = !fields[2].hasPrefix("*")
        weekdayRestricted = !fields[4].hasPrefix("*")
        if !Self.canMatch(daysOfMonth: daysOfMonth, months: months) && !weekdayRestricted {
            throw ParseError(description: "'\(fields[2]) \(fields[3])': no such day in any year")
        }
    }

    public var description: String { text }

    /// The first minute after `date` that the expression matches.
    ///
    /// Returns `nil` only for an expression that matches no day in the next eight years (a
    /// 29 February restricted to a weekday that does not fall on one, say).
    public func next(after date: Date) -> Date? {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        // The next whole minute strictly after `date`.
        let start = (date.timeIntervalSince1970 / 60).rounded(.down) * 60 + 60
        var moment = Date(timeIntervalSince1970: start)
        let limit = date.addingTimeInterval(8 * 366 * 86_400)
        while moment < limit {
            let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .weekday], from: moment)
            guard let year = parts.year, let month = parts.month, let day = parts.day, let hour = parts.hour,
                let minute = parts.minute, let weekday = parts.weekday
            else { return nil }
            if !months.contains(month) {
                moment = Self.date(calendar, year: month == 12 ? year + 1 : year, month: month % 12 + 1, day: 1)
                continue
            }
            if !matchesDay(day: day, weekday: weekday - 1) {
                moment = Self.date(calendar, year: year, month: month, day: day).addingTimeInterval(86_400)
                continue
            }
            if !hours.contains(hour) {
                moment = Self.date(calendar, year: year, month: month, day: day, hour: hour)
                    .addingTimeInterval(3_600)
                continue
            }
            if !minutes.contains(minute) {
                moment = moment.addingTimeInterval(60)
                continue
            }
            return moment
        }
        return nil
    }

    private func matchesDay(day: Int, weekday: Int) -> Bool {
        switch (dayOfMonthRestricted, weekdayRestricted) {
        case (true, true): daysOfMonth.contains(day) || weekdays.contains(weekday)
        case (true, false): daysOfMonth.contains(day)
        case (false, true): weekdays.contains(weekday)
        case (false, false): true
        }
    }

    private static func date(_ calendar: Calendar, year: Int, month: Int, day: Int, hour: Int = 0) -> Date {
        calendar.date(from: DateComponents(year: year, month: month, day: day, hour: hour))!
    }

    /// Whether some day of `daysOfMonth` exists in some month of `months` (31 April does not).
    private static func canMatch(daysOfMonth: Set<Int>, months: Set<Int>) -> Bool {
        let lengths = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        return months.contains { month in daysOfMonth.contains { $0 <= lengths[month - 1] } }
    }

    private static let shorthands: [String: String] = [
        "@hourly": "0 * * * *", "@daily": "0 0 * * *", "@midnight": "0 0 * * *", "@weekly": "0 0 * * 0",
        "@monthly": "0 0 1 * *", "@yearly": "0 0 1 1 *", "@annually": "0 0 1 1 *",
    ]

    /// One of the five fields: its name, range and value names.
    private struct Field {
        var name: String
        var range: ClosedRange<Int>
        var names: [String] = []
        /// The number of `names[0]`.
        var firstNamed = 0

        static let minute = Field(name: "minute", range: 0...59)
        static let hour = Field(name: "hour", range: 0...23)
        static let dayOfMonth = Field(name: "day-of-month", range: 1...31)
        static let month = Field(
            name: "month", range: 1...12,
            names: ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"], firstNamed: 1)
        static let weekday = Field(
            name: "day-of-week", range: 0...7, names: ["sun", "mon", "tue", "wed", "thu", "fri", "sat"])

        func values(_ text: String) throws(ParseError) -> Set<Int> {
            var values = Set<Int>()
            for item in text.split(separator: ",", omittingEmptySubsequences: false) {
                values.formUnion(try self.item(String(item), in: text))
            }
            return values
        }

        private func item(_ item: String, in text: String) throws(ParseError) -> [Int] {
            let parts = item.split(separator: "/", omittingEmptySubsequences: false)
            guard parts.count <= 2 else { throw problem(text, "'\(item)' has more than one '/'") }
            var step = 1
            if parts.count == 2 {
                guard let number = Int(parts[1]), number > 0 else {
                    throw problem(text, "the step after '/' in '\(item)' must be a whole number above 0")
                }
                step = number
            }
            let base = String(parts[0])
            let bounds: ClosedRange<Int>
            if base == "*" {
                bounds = range
            } else if let dash = base.firstIndex(of: "-") {
                let low = try value(String(base[..<dash]), in: text)
                let high = try value(String(base[base.index(after: dash)...]), in: text)
                guard low <= high else { throw problem(text, "the range '\(base)' runs backwards") }
                bounds = low...high
            } else {
                let single = try value(base, in: text)
                // `a/n` means from a to the end of the field in steps of n.
                bounds = parts.count == 2 ? single...range.upperBound : single...single
            }
            return Array(stride(from: bounds.lowerBound, through: bounds.upperBound, by: step))
        }

        private func value(_ text: String, in field: String) throws(ParseError) -> Int {
            if let number = Int(text) {
                guard range.contains(number) else {
                    throw problem(
                        field, "\(number) is out of range (\(range.lowerBound) to \(range.upperBound))")
                }
                return number
            }
            if let index = names.firstIndex(of: text) { return index + firstNamed }
            let expected = names.isEmpty ? "" : " or a name (\(names.joined(separator: ", ")))"
            throw problem(
                field, "'\(text)' is not a number from \(range.lowerBound) to \(range.upperBound)\(expected)")
        }

        private func problem(_ text: String, _ message: String) -> ParseError {
            ParseError(description: "\(name) field '\(text)': \(message)")
        }
    }
}

extension CronExpression: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        do {
            try self.init(parsing: text)
        } catch {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "cron: \(error)")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(text)
    }
}

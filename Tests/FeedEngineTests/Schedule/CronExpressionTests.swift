import FeedEngine
import Foundation
import Testing

/// `cron:` schedules: five fields read in UTC, the next matching minute after a moment.
@Suite("Schedule: cron expressions")
struct CronExpressionTests {
    func next(_ expression: String, after moment: String) throws -> String? {
        let cron = try CronExpression(parsing: expression)
        return try cron.next(after: #require(Timestamp.date(moment))).map(Timestamp.string)
    }

    @Test func aDailyTimeAlreadyPastTodayIsDueTomorrow() throws {
        #expect(try next("0 6 * * *", after: "2026-11-23T07:30:00Z") == "2026-11-24T06:00:00.000Z")
        #expect(try next("0 6 * * *", after: "2026-11-23T05:59:59Z") == "2026-11-23T06:00:00.000Z")
    }

    @Test func theNextTimeIsStrictlyAfterTheMoment() throws {
        #expect(try next("*/15 * * * *", after: "2026-11-23T10:15:00Z") == "2026-11-23T10:30:00.000Z")
    }

    @Test func stepsRangesAndListsCombine() throws {
        #expect(try next("10-30/10,45 * * * *", after: "2026-11-23T10:31:00Z") == "2026-11-23T10:45:00.000Z")
        #expect(try next("10-30/10,45 * * * *", after: "2026-11-23T10:46:00Z") == "2026-11-23T11:10:00.000Z")
        #expect(try next("5/20 * * * *", after: "2026-11-23T10:26:00Z") == "2026-11-23T10:45:00.000Z")
    }

    @Test func weekdayNamesSkipTheWeekend() throws {
        // 2026-11-28 is a Saturday.
        #expect(try next("0 9 * * mon-fri", after: "2026-11-28T12:00:00Z") == "2026-11-30T09:00:00.000Z")
    }

    @Test func sevenIsSundayLikeZero() throws {
        #expect(try next("0 0 * * 7", after: "2026-11-23T00:00:00Z") == "2026-11-29T00:00:00.000Z")
    }

    @Test func aRestrictedDayOfMonthAndWeekdayMatchEitherAsInVixieCron() throws {
        // The 1st of the month or a Monday, whichever comes first after Tuesday 24 November.
        #expect(try next("0 6 1 * mon", after: "2026-11-24T00:00:00Z") == "2026-11-30T06:00:00.000Z")
        #expect(try next("0 6 1 * mon", after: "2026-11-30T07:00:00Z") == "2026-12-01T06:00:00.000Z")
    }

    @Test func monthNamesAndTheYearBoundary() throws {
        #expect(try next("30 12 15 jan *", after: "2026-11-23T00:00:00Z") == "2027-01-15T12:30:00.000Z")
    }

    @Test func theTwentyNinthOfFebruaryWaitsForALeapYear() throws {
        #expect(try next("0 0 29 2 *", after: "2026-03-01T00:00:00Z") == "2028-02-29T00:00:00.000Z")
    }

    @Test func shorthandsStandForTheirExpressions() throws {
        #expect(try next("@daily", after: "2026-11-23T10:00:00Z") == "2026-11-24T00:00:00.000Z")
        #expect(try next("@hourly", after: "2026-11-23T10:00:00Z") == "2026-11-23T11:00:00.000Z")
        #expect(try next("@weekly", after: "2026-11-23T10:00:00Z") == "2026-11-29T00:00:00.000Z")
    }

    @Test(arguments: [
        ("0 6 * *", "a cron expression has five fields (minute hour day-of-month month day-of-week), not 4"),
        ("60 * * * *", "minute field '60': 60 is out of range (0 to 59)"),
        ("0 6 * * funday", "day-of-week field 'funday': 'funday' is not a number from 0 to 7 or a name"),
        ("0 6 31 apr *", "'31 apr': no such day in any year"),
        ("*/0 * * * *", "minute field '*/0': the step after '/' in '*/0' must be a whole number above 0"),
        ("0 20-8 * * *", "hour field '20-8': the range '20-8' runs backwards"),
        ("@sometimes", "unknown shorthand '@sometimes'"),
    ])
    func aMalformedExpressionNamesItsField(expression: String, message: String) {
        #expect {
            try CronExpression(parsing: expression)
        } throws: { error in
            "\(error)".contains(message)
        }
    }
}

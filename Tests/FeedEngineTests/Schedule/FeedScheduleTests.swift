import FeedEngine
import FeedKit
import Foundation
import Testing

/// When a scheduled feed is due: its rhythm, missed slots, jitter, retries after failures and
/// the first time a worker sees it.
@Suite("Schedule: due times")
struct FeedScheduleTests {
    let every15 = FeedSchedule(timing: .every(.minutes(15)))
    let start = Date(timeIntervalSince1970: 1_800_000_000)

    func minutes(_ value: Double) -> Date { start.addingTimeInterval(value * 60) }

    @Test func thePassesKeepTheirRhythmWhateverTheyLast() {
        #expect(every15.nextDue(after: start, ended: minutes(2), failed: false, random: 0) == minutes(15))
    }

    @Test func slotsMissedWhileAPassRanAreSkippedNotCaughtUp() {
        #expect(every15.nextDue(after: start, ended: minutes(40), failed: false, random: 0) == minutes(45))
    }

    @Test func jitterAddsUpToItsShareOfTheInterval() {
        let jittered = FeedSchedule(timing: .every(.minutes(10)), jitter: 0.1)
        #expect(jittered.nextDue(after: start, ended: minutes(1), failed: false, random: 0) == minutes(10))
        #expect(jittered.nextDue(after: start, ended: minutes(1), failed: false, random: 1) == minutes(11))
    }

    @Test func aFailedPassIsRetriedSoonerWhenRetryFailedAfterIsSet() {
        var schedule = every15
        schedule.retryFailedAfter = .minutes(5)
        #expect(schedule.nextDue(after: start, ended: minutes(1), failed: true, random: 0) == minutes(6))
        #expect(schedule.nextDue(after: start, ended: minutes(1), failed: false, random: 0) == minutes(15))
        #expect(every15.nextDue(after: start, ended: minutes(1), failed: true, random: 0) == minutes(15))
    }

    @Test func aCronScheduleIsDueAtItsNextTimeAfterThePassEnded() throws {
        let daily = FeedSchedule(timing: .cron(try CronExpression(parsing: "0 6 * * *")))
        let ended = try #require(Timestamp.date("2026-11-23T06:00:05Z"))
        #expect(
            Timestamp.string(daily.nextDue(after: ended, ended: ended, failed: false, random: 0))
                == "2026-11-24T06:00:00.000Z")
    }

    @Test func aFeedNeverRunOrRunLongerAgoThanItsIntervalIsDueAtOnce() {
        #expect(every15.firstDue(lastStarted: nil, now: start) == start)
        #expect(every15.firstDue(lastStarted: minutes(-20), now: start) == start)
        #expect(every15.firstDue(lastStarted: minutes(-5), now: start) == minutes(10))
    }
}

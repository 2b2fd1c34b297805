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

    @Test func withoutSpreadAFeedNeverRunOrRunLongerAgoThanItsIntervalIsDueAtOnce() {
        #expect(every15.offset == nil)
        #expect(every15.firstDue(lastStarted: nil, now: start) == start)
        #expect(every15.firstDue(lastStarted: minutes(-20), now: start) == start)
        #expect(every15.firstDue(lastStarted: minutes(-5), now: start) == minutes(10))
    }
}

/// Feeds spread over their interval (`spread: true`, the default): each `every:` feed is due at
/// its slots, its offset from a hash of its name after each whole multiple of its interval.
@Suite("Schedule: feeds spread over their interval")
struct FeedSpreadTests {
    /// 2027-01-15T08:00:00Z, a whole multiple of 15 minutes (and of 10 s) since 1970.
    let start = Date(timeIntervalSince1970: 1_800_000_000)
    /// The slot of `rates` every 15 minutes in the quarter hour from `start`.
    var slot: Date { start.addingTimeInterval(20.225) }
    let rates = FeedSchedule(
        timing: .every(.minutes(15)), offset: FeedSchedule.offset(ofFeed: "rates", every: .minutes(15)))

    func minutes(_ value: Double, after date: Date) -> Date { date.addingTimeInterval(value * 60) }

    /// `date` in whole milliseconds since 1970, the store's precision, to compare due times
    /// without the rounding of adding seconds to a `Date`.
    func ms(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1000).rounded()) }

    @Test func aFeedsOffsetIsAStableHashOfItsNameTheSameShareOfAnyInterval() {
        // FNV-1a 64 of the name's UTF-8, mixed: these values change only with the hash, which
        // would move every spread feed's passes.
        #expect(FeedSchedule.offset(ofFeed: "rates", every: .minutes(15)) == .milliseconds(20_225))
        #expect(FeedSchedule.offset(ofFeed: "rates", every: .seconds(10)) == .milliseconds(224))
        #expect(FeedSchedule.offset(ofFeed: "currencies", every: .minutes(15)) == .milliseconds(325_049))
        #expect(FeedSchedule.offset(ofFeed: "rates", every: .minutes(15)) == rates.offset)
    }

    @Test func aThousandFeedsWithOneIntervalAreSpreadOverIt() {
        for names in [(1...1000).map { "f\($0)" }, (1...1000).map { "shop-\(String(format: "%04d", $0))" }] {
            let dues = names.map { name in
                FeedSchedule(
                    timing: .every(.seconds(10)), offset: FeedSchedule.offset(ofFeed: name, every: .seconds(10))
                )
                .firstDue(lastStarted: nil, now: start)
            }
            #expect(dues.allSatisfy { $0 >= start && $0 < start.addingTimeInterval(10) })
            // 100 a second on average: none of the ten seconds holds twice that or half of it.
            var perSecond = [Int](repeating: 0, count: 10)
            for due in dues { perSecond[min(9, Int(due.timeIntervalSince(start)))] += 1 }
            #expect(perSecond.allSatisfy { (50...200).contains($0) }, "\(names[0])...: \(perSecond)")
            #expect(Set(dues).count > 900, "\(names[0])...: \(Set(dues).count) distinct due times of 1,000")
        }
    }

    @Test func aFeedThatNeverRanIsFirstDueAtItsNextSlotNotAtOnce() {
        #expect(ms(rates.firstDue(lastStarted: nil, now: start)) == ms(slot))
        #expect(ms(rates.firstDue(lastStarted: nil, now: slot)) == ms(slot))
        #expect(ms(rates.firstDue(lastStarted: nil, now: slot.addingTimeInterval(1))) == ms(minutes(15, after: slot)))
    }

    @Test func aFeedThatRanKeepsItsPhaseAcrossARestart() {
        // Started 40 ms late at its slot; the worker restarts 5 minutes later.
        let started = slot.addingTimeInterval(0.04)
        #expect(ms(rates.firstDue(lastStarted: started, now: minutes(5, after: slot))) == ms(minutes(15, after: slot)))
    }

    @Test func anOverdueFeedRunsAtItsNextSlotWithinOneIntervalNotAtOnce() {
        let now = minutes(1, after: start)
        #expect(ms(rates.firstDue(lastStarted: minutes(-60, after: start), now: now)) == ms(minutes(15, after: slot)))
    }

    @Test func aFeedBroughtOntoItsSlotsRunsNoSoonerThanHalfAnIntervalAfterItsLastStart() {
        // Last started (before spreading) a second before its slot: the next slot but one.
        let started = slot.addingTimeInterval(-1)
        #expect(
            ms(rates.firstDue(lastStarted: started, now: started.addingTimeInterval(5))) == ms(minutes(15, after: slot))
        )
        // Last started 8 minutes before its slot: that slot, 8 minutes on.
        let earlier = minutes(-8, after: slot)
        #expect(ms(rates.firstDue(lastStarted: earlier, now: earlier.addingTimeInterval(5))) == ms(slot))
    }

    @Test func nextDueKeepsThePhaseAndSkipsMissedSlots() {
        #expect(
            ms(rates.nextDue(after: slot, ended: minutes(2, after: slot), failed: false, random: 0.7))
                == ms(minutes(15, after: slot)))
        #expect(
            ms(rates.nextDue(after: slot, ended: minutes(40, after: slot), failed: false, random: 0))
                == ms(minutes(45, after: slot)))
    }

    @Test func jitterDelaysEachPassAfterItsSlotWithoutMovingThePhase() {
        var jittered = rates
        jittered.jitter = 0.1
        let late = jittered.nextDue(after: slot, ended: minutes(1, after: slot), failed: false, random: 1)
        #expect(ms(late) == ms(minutes(16.5, after: slot)))
        // The next one after that jittered pass is due at the slot after, plus its own jitter.
        #expect(
            ms(jittered.nextDue(after: late, ended: minutes(17, after: slot), failed: false, random: 0))
                == ms(minutes(30, after: slot)))
    }

    @Test func aPassDueOffItsSlotBringsTheFeedBackOntoIt() {
        var retried = rates
        retried.retryFailedAfter = .minutes(5)
        // Failed at its slot: retried 5 minutes after it ended, then back at its slots.
        let retry = retried.nextDue(after: slot, ended: minutes(1, after: slot), failed: true, random: 0)
        #expect(ms(retry) == ms(minutes(6, after: slot)))
        #expect(
            ms(retried.nextDue(after: retry, ended: minutes(6.5, after: slot), failed: false, random: 0))
                == ms(minutes(15, after: slot)))
        // Due at once before the feed was spread (`start`, off its slot): its next slot at least
        // half an interval later.
        #expect(
            ms(rates.nextDue(after: start, ended: minutes(1, after: start), failed: false, random: 0))
                == ms(minutes(15, after: slot)))
    }

    @Test func aCronScheduleIsNotSpread() throws {
        let daily = FeedSchedule(
            timing: .cron(try CronExpression(parsing: "0 6 * * *")),
            offset: FeedSchedule.offset(ofFeed: "rates", every: .days(1)))
        let ended = try #require(Timestamp.date("2026-11-23T06:00:05Z"))
        #expect(
            Timestamp.string(daily.nextDue(after: ended, ended: ended, failed: false, random: 0))
                == "2026-11-24T06:00:00.000Z")
        #expect(ms(daily.firstDue(lastStarted: nil, now: ended)) == ms(ended))
    }
}

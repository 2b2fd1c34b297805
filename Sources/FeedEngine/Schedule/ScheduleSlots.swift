import FeedKit
import Foundation

/// The times an `every:` feed spread over its interval is due at: its offset after each whole
/// multiple of the interval since 1970-01-01 00:00 UTC, in whole milliseconds (the store's
/// precision). See ``FeedSchedule/offset``.
struct ScheduleSlots: Sendable {
    /// The interval, in milliseconds (at least 1).
    let every: Int64
    /// The offset in the interval, in milliseconds, from 0 to `every - 1`.
    let offset: Int64

    init(every: FeedDuration, offset: FeedDuration) {
        self.every = max(1, every.milliseconds)
        self.offset = Self.remainder(offset.milliseconds, self.every)
    }

    /// The first slot at or after `date` (to the millisecond).
    func first(atOrAfter date: Date) -> Date {
        let time = Self.milliseconds(date)
        let slot = time - Self.remainder(time - offset, every)
        return Self.date(slot == time ? slot : slot + every)
    }

    /// The first slot after `date` (to the millisecond).
    func first(after date: Date) -> Date { first(atOrAfter: date.addingTimeInterval(0.001)) }

    /// A feed's offset in `every`: ``hash(_:)`` of its name scaled to the interval (its top
    /// bits, so the same share of any interval).
    static func offset(ofFeed name: String, every: FeedDuration) -> FeedDuration {
        let scale = UInt64(max(1, every.milliseconds))
        return .milliseconds(Int64(hash(name).multipliedFullWidth(by: scale).high))
    }

    /// FNV-1a 64 of `text`'s UTF-8 bytes, then MurmurHash3's 64-bit finalizer: stable across
    /// processes, machines and versions, unlike `hashValue`. The finalizer mixes every bit into
    /// the top ones, which FNV-1a alone barely changes between names that differ in their last
    /// character (`f1`, `f2`...).
    static func hash(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        hash ^= hash >> 33
        hash = hash &* 0xff51_afd7_ed55_8ccd
        hash ^= hash >> 33
        hash = hash &* 0xc4ce_b9fe_1a85_ec53
        hash ^= hash >> 33
        return hash
    }

    /// `date` in whole milliseconds since 1970, rounded.
    private static func milliseconds(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1000).rounded()) }

    private static func date(_ milliseconds: Int64) -> Date {
        Date(timeIntervalSince1970: TimeInterval(milliseconds) / 1000)
    }

    /// `value` modulo `divisor` (positive), from 0 to `divisor - 1` also for a negative `value`.
    private static func remainder(_ value: Int64, _ divisor: Int64) -> Int64 {
        let remainder = value % divisor
        return remainder < 0 ? remainder + divisor : remainder
    }
}

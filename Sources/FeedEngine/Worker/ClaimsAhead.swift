import Foundation

/// The feeds a worker claimed, held in memory until their pass starts: on a SQLite store, which
/// one worker holds, claimed shortly before they are due (``Worker/claimHorizon(lease:)``); on a
/// board shared with other workers, claimed once due for a free slot.
///
/// A claim is a write of the store, and on SQLite it waits behind the passes' transactions on
/// the one writer: claimed at its due time, a feed started that wait late. Claimed ahead, it
/// starts from here at its due time, or as soon as a slot frees.
///
/// On a board shared with other workers (PostgreSQL), a claim not started within a third of its
/// lease, or by the claim horizon after its due time (every slot stayed busy, or a feed it
/// depends on ran), is given back still due: another worker with a free slot may take it, and
/// a pass that starts renews its claim well before the lease lapses. A worker holding a SQLite
/// store's exclusive lock has no one to give it to and keeps it until a slot frees.
struct ClaimsAhead: Sendable {
    /// A claim and when (schedule time) the worker got it.
    struct Held: Sendable {
        var claim: ScheduleClaim
        var claimedAt: Date
    }

    /// By due time, then feed name: the order the board hands out claims.
    private(set) var held: [Held] = []

    var count: Int { held.count }
    var isEmpty: Bool { held.isEmpty }

    func contains(_ feed: String) -> Bool { held.contains { $0.claim.feed == feed } }

    /// The feeds held.
    var feeds: [String] { held.map(\.claim.feed) }

    /// Whether `feed` is held and due at `now`.
    func isDue(_ feed: String, at now: Date) -> Bool {
        held.contains { $0.claim.feed == feed && $0.claim.due <= now }
    }

    /// The earliest due time held, or `nil`.
    var earliestDue: Date? { held.first?.claim.due }

    /// The earliest moment one of the claims goes stale (``takeStale(claimedBefore:dueBefore:)``
    /// with `age` and `wait`), or `nil`.
    func nextStale(age: TimeInterval, wait: TimeInterval) -> Date? {
        held.map { min($0.claimedAt.addingTimeInterval(age), $0.claim.due.addingTimeInterval(wait)) }.min()
    }

    mutating func add(_ claims: [ScheduleClaim], claimedAt: Date) {
        held += claims.map { Held(claim: $0, claimedAt: claimedAt) }
        held.sort { ($0.claim.due, $0.claim.feed) < ($1.claim.due, $1.claim.feed) }
    }

    /// The earliest due time after `now`, or `nil`.
    func nextDue(after now: Date) -> Date? { held.first { $0.claim.due > now }?.claim.due }

    /// The most overdue claim due at `now` for which `canStart` holds.
    func firstDue(at now: Date, where canStart: (ScheduleClaim) -> Bool) -> ScheduleClaim? {
        held.first { $0.claim.due <= now && canStart($0.claim) }?.claim
    }

    mutating func remove(_ feed: String) { held.removeAll { $0.claim.feed == feed } }

    /// Takes the claims got before `claimed` or due before `due`.
    mutating func takeStale(claimedBefore claimed: Date, dueBefore due: Date) -> [ScheduleClaim] {
        let isStale = { (held: Held) in held.claimedAt < claimed || held.claim.due < due }
        let stale = held.filter(isStale).map(\.claim)
        held.removeAll(where: isStale)
        return stale
    }

    /// Takes every claim held.
    mutating func takeAll() -> [ScheduleClaim] {
        defer { held = [] }
        return held.map(\.claim)
    }
}

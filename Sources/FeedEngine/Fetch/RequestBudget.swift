import FeedKit
import Foundation
import Synchronization

/// A limit on how often requests are sent: never more than `requests` in any span of `per`,
/// across every feed of the process that shares it; or, with `burst`, a token bucket that
/// allows bursts of up to `burst` after a quiet spell.
///
/// Feeds share a budget by naming one of `defaults: { budgets: ... }` (`budget: crm-api`); a
/// feed's own `rate_limit:` is a budget of that feed alone. Requests wait for the budget before
/// they are sent (retries too); a 429 and its `Retry-After` are still honoured on top.
public struct RequestBudget: Sendable, Hashable {
    /// The budget's name in `budgets:`, or `feed NAME` for a feed's own `rate_limit`.
    public var name: String
    public var requests: Int
    public var per: FeedDuration
    /// The most requests sent at once after a quiet spell, refilled at `requests` per `per`
    /// (a token bucket); `nil` for a sliding window, which never sends more than `requests` in
    /// any span of `per`. A bucket sends up to `burst + requests` in the first `per`: an API
    /// that counts in a sliding window refuses that, so the window is the default.
    public var burst: Int?

    public init(name: String, requests: Int, per: FeedDuration, burst: Int? = nil) {
        self.name = name
        self.requests = requests
        self.per = per
        self.burst = burst
    }

    /// Requests the budget allows per second.
    var ratePerSecond: Double { Double(requests) / per.seconds }
}

/// What a ``RequestBudget`` still allows, shared by every feed of the budget in this process.
///
/// Each request reserves the earliest time the budget allows and sleeps until then, so waiting
/// requests are served in the order they asked, and the budget is never exceeded however many
/// feeds wait on it.
final class RequestBudgetGate: Sendable {
    let budget: RequestBudget
    private let pace: Mutex<any RequestPace>

    init(_ budget: RequestBudget) {
        self.budget = budget
        let now = ContinuousClock.now
        if let burst = budget.burst {
            pace = Mutex(TokenBucketPace(burst: Double(burst), rate: budget.ratePerSecond, now: now))
        } else {
            pace = Mutex(SlidingWindowPace(requests: budget.requests, per: .milliseconds(budget.per.milliseconds)))
        }
    }

    /// Waits until the budget allows one more request, and takes it.
    ///
    /// - Returns: how long the request waited.
    /// - Throws: `CancellationError` when the pass is interrupted while it waits.
    func take() async throws -> Duration {
        // The clock is read under the lock, so reservations are made in the order of their
        // times: a caller that read the clock earlier but locked later cannot go first.
        let (now, slot) = pace.withLock { pace in
            let now = ContinuousClock.now
            return (now, pace.reserve(at: now))
        }
        guard slot > now else { return .zero }
        try await Task.sleep(until: slot, clock: .continuous)
        return now.duration(to: slot)
    }
}

/// How a ``RequestBudgetGate`` spaces requests: the time the next request may be sent.
private protocol RequestPace: Sendable {
    /// Reserves the earliest time, no sooner than `now`, at which one more request is within
    /// the budget.
    mutating func reserve(at now: ContinuousClock.Instant) -> ContinuousClock.Instant
}

/// Never more than `requests` in any span of `per`: a request goes no sooner than `per` after
/// the one reserved `requests` before it. Keeps the times of the last `requests` reservations,
/// which grow only as requests are made.
private struct SlidingWindowPace: RequestPace {
    let requests: Int
    let per: Duration
    /// The last `requests` reservations, oldest at `oldest` once the ring is full.
    private var reserved: [ContinuousClock.Instant] = []
    private var oldest = 0

    init(requests: Int, per: Duration) {
        self.requests = requests
        self.per = per
    }

    mutating func reserve(at now: ContinuousClock.Instant) -> ContinuousClock.Instant {
        guard reserved.count == requests else {
            // Reservations only grow later, so the newest is the latest.
            let slot = max(now, reserved.last ?? now)
            reserved.append(slot)
            return slot
        }
        let slot = max(now, reserved[oldest] + per)
        reserved[oldest] = slot
        oldest = (oldest + 1) % requests
        return slot
    }
}

/// A token bucket of `burst` tokens, refilled at `rate` a second.
private struct TokenBucketPace: RequestPace {
    let burst: Double
    let rate: Double
    private var tokens: Double
    private var updated: ContinuousClock.Instant

    init(burst: Double, rate: Double, now: ContinuousClock.Instant) {
        self.burst = burst
        self.rate = rate
        tokens = burst
        updated = now
    }

    mutating func reserve(at now: ContinuousClock.Instant) -> ContinuousClock.Instant {
        let elapsed = updated.duration(to: now)
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
        tokens = min(burst, tokens + seconds * rate)
        updated = now
        tokens -= 1
        return tokens >= 0 ? now : now.advanced(by: .seconds(-tokens / rate))
    }
}

/// The process's budget gates by name, so that feeds naming one budget share its gate, and a
/// worker keeps it from pass to pass. A budget whose numbers change (the config was reloaded)
/// gets a new gate.
final class RequestBudgets: Sendable {
    private let gates = Mutex<[String: RequestBudgetGate]>([:])

    /// The gate of `budget`.
    func gate(for budget: RequestBudget) -> RequestBudgetGate {
        gates.withLock { gates in
            if let gate = gates[budget.name], gate.budget == budget { return gate }
            let gate = RequestBudgetGate(budget)
            gates[budget.name] = gate
            return gate
        }
    }
}

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
/// Requests are admitted in the order they asked, and the budget is never exceeded however
/// many feeds wait on it.
final class RequestBudgetGate: Sendable {
    let budget: RequestBudget
    private let pace: any RequestPace

    init(_ budget: RequestBudget) {
        self.budget = budget
        if let burst = budget.burst {
            pace = TokenBucketPace(burst: Double(burst), rate: budget.ratePerSecond, now: .now)
        } else {
            pace = SlidingWindowPace(requests: budget.requests, per: .milliseconds(budget.per.milliseconds))
        }
    }

    /// Waits until the budget allows one more request, then sends it with `send`.
    ///
    /// - Returns: what `send` returned, and how long the request waited for the budget.
    /// - Throws: `CancellationError` when the pass is interrupted while it waits.
    func admit<Answer: Sendable>(_ send: () async -> Answer) async throws -> (answer: Answer, waited: Duration) {
        let waited = try await pace.acquire()
        let answer = await send()
        pace.release()
        return (answer, waited)
    }
}

/// How a ``RequestBudgetGate`` spaces requests.
private protocol RequestPace: Sendable {
    /// Waits until one more request is within the budget, and takes it.
    ///
    /// - Returns: how long the caller waited.
    func acquire() async throws -> Duration
    /// Tells the pace that the request admitted by the caller's ``acquire()`` has been answered
    /// (or has failed).
    func release()
}

/// Never more than `requests` in any span of `per`, as the API counts them: `requests` permits,
/// each usable again `per` after the answer to the request that held it.
///
/// Counting from the answer rather than from the send is what makes the promise hold at the
/// API: a request that reaches the server late (a loaded machine, a slow connect) still arrived
/// before its answer, so the permit's next request arrives at least `per` after it. A permit is
/// handed straight to the longest-waiting request, so waiters are served in the order they asked.
private final class SlidingWindowPace: RequestPace {
    private struct State {
        /// Permits not in use, each with the time it may be used again, oldest first.
        var free: [ContinuousClock.Instant]
        /// Requests waiting for a permit, first come first served, each handed the time its
        /// permit may be used.
        var waiting: [(id: Int, resume: CheckedContinuation<ContinuousClock.Instant?, Never>)] = []
        var nextID = 0
    }

    private let per: Duration
    private let state: Mutex<State>

    init(requests: Int, per: Duration) {
        self.per = per
        let past = ContinuousClock.now.advanced(by: .zero - per)
        state = Mutex(State(free: Array(repeating: past, count: requests)))
    }

    func acquire() async throws -> Duration {
        let asked = ContinuousClock.now
        let usable = try await permit()
        do {
            if usable > .now { try await Task.sleep(until: usable, clock: .continuous) }
        } catch {
            // Interrupted before sending: the permit goes back unused, as usable as it was.
            give(usableAt: usable)
            throw error
        }
        return max(.zero, asked.duration(to: usable))
    }

    func release() {
        give(usableAt: ContinuousClock.now.advanced(by: per))
    }

    /// A free permit's time, or the next one given back when none is free.
    private func permit() async throws -> ContinuousClock.Instant {
        let id = state.withLock { state -> Int in
            defer { state.nextID += 1 }
            return state.nextID
        }
        let usable: ContinuousClock.Instant? = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                // A task cancelled before it queues is answered at once: the cancellation
                // handler has already run and would not find it.
                let answered = state.withLock { state -> ContinuousClock.Instant?? in
                    if Task.isCancelled { return .some(nil) }
                    if state.waiting.isEmpty, !state.free.isEmpty { return state.free.removeFirst() }
                    state.waiting.append((id, continuation))
                    return .none
                }
                if let answered { continuation.resume(returning: answered) }
            }
        } onCancel: {
            let cancelled = state.withLock { state in
                state.waiting.firstIndex { $0.id == id }.map { state.waiting.remove(at: $0).resume }
            }
            cancelled?.resume(returning: nil)
        }
        guard let usable else { throw CancellationError() }
        return usable
    }

    /// Gives a permit back, usable at `usableAt`: to the longest-waiting request, or to the free.
    private func give(usableAt: ContinuousClock.Instant) {
        let waiter = state.withLock { state in
            if state.waiting.isEmpty {
                let index = state.free.firstIndex { $0 > usableAt } ?? state.free.endIndex
                state.free.insert(usableAt, at: index)
                return nil as CheckedContinuation<ContinuousClock.Instant?, Never>?
            }
            return state.waiting.removeFirst().resume
        }
        waiter?.resume(returning: usableAt)
    }
}

/// A token bucket of `burst` tokens, refilled at `rate` a second.
///
/// Each request reserves the earliest time the bucket allows and sleeps until then, so waiting
/// requests are served in the order they asked.
private final class TokenBucketPace: RequestPace {
    private struct Bucket {
        var tokens: Double
        var updated: ContinuousClock.Instant
    }

    private let burst: Double
    private let rate: Double
    private let bucket: Mutex<Bucket>

    init(burst: Double, rate: Double, now: ContinuousClock.Instant) {
        self.burst = burst
        self.rate = rate
        bucket = Mutex(Bucket(tokens: burst, updated: now))
    }

    func acquire() async throws -> Duration {
        // The clock is read under the lock, so reservations are made in the order of their
        // times: a caller that read the clock earlier but locked later cannot go first.
        let (now, slot) = bucket.withLock { bucket in
            let now = ContinuousClock.now
            let elapsed = bucket.updated.duration(to: now)
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
            bucket.tokens = min(burst, bucket.tokens + seconds * rate)
            bucket.updated = now
            bucket.tokens -= 1
            return (now, bucket.tokens >= 0 ? now : now.advanced(by: .seconds(-bucket.tokens / rate)))
        }
        guard slot > now else { return .zero }
        try await Task.sleep(until: slot, clock: .continuous)
        return now.duration(to: slot)
    }

    func release() {}
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

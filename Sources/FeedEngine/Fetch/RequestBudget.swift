import FeedKit
import Foundation
import Synchronization

/// A limit on how often requests are sent: at most `requests` per `per`, in bursts of up to
/// `burst`, across every feed of the process that shares it.
///
/// Feeds share a budget by naming one of `defaults: { budgets: ... }` (`budget: crm-api`); a
/// feed's own `rate_limit:` is a budget of that feed alone. Requests wait for the budget before
/// they are sent (retries too); a 429 and its `Retry-After` are still honoured on top.
public struct RequestBudget: Sendable, Hashable {
    /// The budget's name in `budgets:`, or `feed NAME` for a feed's own `rate_limit`.
    public var name: String
    public var requests: Int
    public var per: FeedDuration
    /// The most requests sent at once after a quiet spell; `requests` by default.
    public var burst: Int

    public init(name: String, requests: Int, per: FeedDuration, burst: Int? = nil) {
        self.name = name
        self.requests = requests
        self.per = per
        self.burst = burst ?? requests
    }

    /// Requests the budget allows per second.
    var ratePerSecond: Double { Double(requests) / per.seconds }
}

/// What a ``RequestBudget`` still allows: a token bucket of `burst` tokens, refilled at the
/// budget's rate, shared by every feed of the budget in this process.
///
/// Each request takes a token; when none is left, it reserves the next one to come and sleeps
/// until then, so waiting requests are served in the order they asked, and the budget is never
/// exceeded however many feeds wait on it.
final class RequestBudgetGate: Sendable {
    let budget: RequestBudget
    private let state: Mutex<(tokens: Double, updated: ContinuousClock.Instant)>

    init(_ budget: RequestBudget) {
        self.budget = budget
        state = Mutex((Double(budget.burst), ContinuousClock.now))
    }

    /// Waits until the budget allows one more request, and takes it.
    ///
    /// - Returns: how long the request waited.
    /// - Throws: `CancellationError` when the pass is interrupted while it waits.
    func take() async throws -> Duration {
        let rate = budget.ratePerSecond
        let burst = Double(budget.burst)
        // The clock is read under the lock, so the bucket's time only moves forward: a caller
        // that read it earlier but locked later would credit the same interval twice.
        let (now, wait) = state.withLock { state -> (ContinuousClock.Instant, Double) in
            let now = ContinuousClock.now
            let elapsed = state.updated.duration(to: now)
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
            state.tokens = min(burst, state.tokens + seconds * rate)
            state.updated = now
            state.tokens -= 1
            return (now, state.tokens >= 0 ? 0 : -state.tokens / rate)
        }
        guard wait > 0 else { return .zero }
        let duration = Duration.seconds(wait)
        try await Task.sleep(until: now.advanced(by: duration), clock: .continuous)
        return duration
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

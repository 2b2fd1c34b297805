import FeedKit
import Foundation

/// The wait before a retry: exponential from ``FetchPolicy/backoff``, with jitter, or what the
/// server asked for with `Retry-After` (capped at ``FetchPolicy/retryAfterCap``).
public enum Backoff {
    /// The longest exponential backoff, however many retries came before.
    public static let maximum: TimeInterval = 60

    /// The wait before retry number `retry` (1 for the first retry).
    ///
    /// Without `retryAfter`, the base is `backoff * 2^(retry-1)` (at most ``maximum``) and the wait
    /// a random value between half the base and the base, so clients that failed together do not
    /// retry together. With `retryAfter`, it is that delay cut to the policy's cap.
    public static func delay(
        beforeRetry retry: Int, policy: FetchPolicy, retryAfter: TimeInterval? = nil,
        random: (ClosedRange<Double>) -> Double = { Double.random(in: $0) }
    ) -> TimeInterval {
        if let retryAfter {
            return min(max(0, retryAfter), policy.retryAfterCap.seconds)
        }
        let exponent = Double(min(max(retry - 1, 0), 30))
        let base = min(policy.backoff.seconds * pow(2, exponent), maximum)
        guard base > 0 else { return 0 }
        return random(base / 2...base)
    }
}

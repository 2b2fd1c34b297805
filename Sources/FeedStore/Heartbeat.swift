import Dispatch
import Foundation
import Synchronization

/// A thread that calls `beat` every `interval` until stopped, or until `beat` returns false:
/// what keeps a database session that holds something (a feed's lease, a pass's open
/// transaction) from looking silent to a server that ends silent sessions.
///
/// The interval is counted on the monotonic clock (a `DispatchSemaphore`'s timeout), so a step
/// of the wall clock neither delays a beat past the server's limit nor bunches beats.
package final class Heartbeat: Sendable {
    /// What the beating thread and ``stop()`` share.
    private final class Signal: Sendable {
        let wake = DispatchSemaphore(value: 0)
        let stopped = Mutex(false)
    }
    private let signal = Signal()

    /// Starts beating: the first beat comes `interval` from now.
    package init(label: String, every interval: Duration, beat: @escaping @Sendable () -> Bool) {
        let signal = signal
        let nanoseconds = Int(interval / .nanoseconds(1))
        let thread = Thread {
            while true {
                _ = signal.wake.wait(timeout: .now() + .nanoseconds(nanoseconds))
                if signal.stopped.withLock({ $0 }) || !beat() { return }
            }
        }
        thread.name = label
        thread.start()
    }

    /// Stops beating; a beat under way finishes first (on its thread: this does not wait).
    package func stop() {
        let first = signal.stopped.withLock { stopped in
            defer { stopped = true }
            return !stopped
        }
        if first { signal.wake.signal() }
    }

    deinit { stop() }
}

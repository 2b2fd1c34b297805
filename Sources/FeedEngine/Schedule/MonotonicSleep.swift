import Foundation
import Synchronization

/// A wait of the worker's that only the monotonic clock ends: on a thread of its own, in
/// relative sleeps (`nanosleep`) of at most ``step``, until the monotonic clock has advanced by
/// the wait. `Task.sleep` arms an absolute timer, which a program that steps the process's wall
/// clock (libfaketime, which shifts absolute timers by its offset) can push out by the size of
/// the step, stalling the schedule; a relative sleep is not moved.
enum MonotonicSleep {
    /// The longest single sleep: how soon a cancelled wait ends.
    static let step = 0.1

    /// Waits `seconds` on the monotonic clock; returns early when the task is cancelled.
    static func sleep(seconds: Double) async {
        guard seconds > 0, !Task.isCancelled else { return }
        let cancelled = Cancelled()
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let thread = Thread {
                    let clock = ContinuousClock()
                    let deadline = clock.now + .milliseconds(Int64((seconds * 1000).rounded(.up)))
                    while !cancelled.flag.load(ordering: .acquiring) {
                        let left = clock.now.duration(to: deadline)
                        guard left > .zero else { break }
                        let interval = min(
                            Double(left.components.seconds) + Double(left.components.attoseconds) / 1e18, step)
                        Thread.sleep(forTimeInterval: interval)
                    }
                    continuation.resume()
                }
                thread.name = "feedwork.worker.wait"
                thread.start()
            }
        } onCancel: {
            cancelled.flag.store(true, ordering: .releasing)
        }
    }

    private final class Cancelled: Sendable {
        let flag = Atomic(false)
    }
}

import Foundation
import Synchronization

/// Launching a child program from an adapter.
extension Process {
    private static let launching = Mutex(())

    /// Starts the process like `run()`, one launch at a time in this program.
    ///
    /// Foundation's `Process.run()` on Linux is not safe to call from several threads at once
    /// (parallel launches crashed inside it, copying memory while spawning). Every launch in the
    /// package goes through here, so adapters that run programs (the singer adapter's taps) and
    /// tests that start processes take turns; only the launch is serialized, the children run
    /// and are waited for in parallel. An adapter that starts a program starts it here.
    public func runSerialized() throws {
        try Self.launching.withLock { _ in try run() }
    }
}

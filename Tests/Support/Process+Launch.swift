import Foundation
import Synchronization

extension Process {
    private static let launching = Mutex(())

    /// Starts the process like `run()`, one launch at a time in this test process.
    ///
    /// Foundation's `Process.run()` on Linux is not safe to call from several threads at once: the
    /// parallel test suites that start processes crashed inside it (a bad memory copy while
    /// spawning). Only the launch is serialized; the children run and are waited for in parallel.
    public func spawn() throws {
        try Self.launching.withLock { _ in try run() }
    }
}

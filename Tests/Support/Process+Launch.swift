import FeedKit
import Foundation

extension Process {
    /// Starts the process like `run()`, one launch at a time in this test process.
    ///
    /// Foundation's `Process.run()` on Linux is not safe to call from several threads at once: the
    /// parallel test suites that start processes crashed inside it (a bad memory copy while
    /// spawning). The launch takes turns with every other in the package (adapters that start
    /// programs, such as the singer adapter, included); the children run and are waited for in
    /// parallel.
    public func spawn() throws {
        try runSerialized()
    }
}

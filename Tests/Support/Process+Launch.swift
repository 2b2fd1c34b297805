import FeedKit
import Foundation

extension Process {
    /// Starts the process like `run()`, one launch at a time in this test process.
    ///
    /// The launch takes turns with every other in the package (adapters that start programs,
    /// such as the singer adapter, included); the children run and are waited for in parallel.
    /// `runSerialized()` says what this does and does not guard against.
    public func spawn() throws {
        try runSerialized()
    }
}

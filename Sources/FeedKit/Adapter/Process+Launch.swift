import Foundation
import Synchronization

/// Launching a child program from an adapter.
extension Process {
    private static let launching = Mutex(())

    /// Starts the process like `run()`, one launch at a time in this program.
    ///
    /// Every launch in the package goes through here: adapters that run programs (the singer
    /// adapter's taps) and tests that start processes take turns; only the launch is serialized,
    /// the children run and are waited for in parallel. An adapter that starts a program starts
    /// it here.
    ///
    /// Taking turns does not guard against the crash once seen in Foundation's `Process.run()`
    /// on Linux (a bad memory copy while spawning): it reads 256 bytes of each entry of
    /// `/proc/self/fd`, past the end of the short ones (swift-corelibs-foundation #5472), which
    /// can fault whatever the other threads do once a process holds about 1,300 descriptors. The
    /// test process keeps below that by running at most 16 tests at once (`Tests/Parallelism`)
    /// and by closing released store locks' descriptors (`SQLiteStoreLock`).
    public func runSerialized() throws {
        try Self.launching.withLock { _ in try run() }
    }
}

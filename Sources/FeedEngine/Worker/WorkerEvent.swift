import FeedKit
import FeedStore
import Foundation

/// What a worker tells as it goes (``Worker/observer``): for its output lines, logs and metrics.
public enum WorkerEvent: Sendable {
    /// The worker put its scheduled feeds on the board and starts claiming them.
    case started(worker: String, feeds: Int)
    /// A claimed feed's pass starts, `lag` seconds after it was due.
    case passStarted(feed: String, due: Date, lag: TimeInterval)
    /// A pass ended (committed, failed or rolled back). It was due at `due` and started `lag`
    /// seconds later; the feed is next due at `next`.
    case passFinished(FeedReport, due: Date, lag: TimeInterval, next: Date)
    /// Renewing the claim on `feed` found another worker holding it: this worker's lease ran
    /// out while the pass went on (the feed's own lease still keeps the two passes apart).
    case claimLost(feed: String)
    /// The schedule board could not be read or written; the worker tries again.
    case boardFailed(String)
    /// The board answers again after ``boardFailed(_:)``: the store is back.
    case boardRecovered
    /// A new config is in use.
    case reloaded(feeds: Int)
    /// A new config was refused and the old one kept.
    case reloadRefused(String)
    /// Stopping: no new pass starts; `running` passes are given the grace time.
    case stopping(running: Int)
    /// The grace time ran out: the passes still running are rolled back.
    case graceExpired(running: [String])
}

/// Receives a worker's events; called from the worker's tasks, so it must be quick and
/// thread-safe.
public protocol WorkerObserver: Sendable {
    func worker(_ event: WorkerEvent)
}

/// What the CLI asks of a running worker.
public enum WorkerControl: Sendable {
    /// Stop gracefully (SIGTERM, SIGINT).
    case stop
    /// Use this config from now on (SIGHUP, once it loaded without problems).
    case reload(FeedsConfig)
}

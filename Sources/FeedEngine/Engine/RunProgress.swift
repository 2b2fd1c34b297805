import Foundation
import Synchronization

/// The counters of a run's feeds while they are under way, for a progress display: read it as
/// often as wanted while ``Engine/run(feeds:live:progress:)`` goes on.
public final class RunProgress: Sendable {
    /// What one feed under way has done so far, over all its passes of the run (a backfill in
    /// date windows commits several, see ``FeedKit/FeedPass/continueAfterCommit()``).
    public struct Feed: Sendable, Hashable {
        public var name: String
        public var startedAt: Date
        /// Responses received (pages, files, cache hits).
        public var responses: Int
        /// Records mapped and handed to the store.
        public var records: Int
        /// Bytes received.
        public var bytes: Int
        /// What the adapter shows of its progress beyond the counters ("window 6 of 13"), if
        /// anything.
        public var stage: String?
    }

    /// A feed under way: its pass's backend, and what its passes before that one did.
    private struct Entry {
        var name: String
        var startedAt: Date
        var backend: EnginePassBackend
        var earlier = (responses: 0, records: 0, bytes: 0)
    }

    private let running = Mutex<[Entry]>([])

    public init() {}

    /// The feeds under way, in the order they started.
    public var feeds: [Feed] {
        running.withLock { running in
            running.map { entry in
                let statistics = entry.backend.statistics.withLock { $0 }
                return Feed(
                    name: entry.name, startedAt: entry.startedAt,
                    responses: entry.earlier.responses + statistics.requests,
                    records: entry.earlier.records + statistics.records, bytes: entry.earlier.bytes + statistics.bytes,
                    stage: statistics.progress)
            }
        }
    }

    /// The feed's first pass started, or (when the feed is under way) its next one: the
    /// counters go on from the earlier passes'.
    func started(_ feed: String, at date: Date, backend: EnginePassBackend) {
        running.withLock { running in
            guard let index = running.firstIndex(where: { $0.name == feed }) else {
                running.append(Entry(name: feed, startedAt: date, backend: backend))
                return
            }
            let done = running[index].backend.statistics.withLock { $0 }
            running[index].earlier.responses += done.requests
            running[index].earlier.records += done.records
            running[index].earlier.bytes += done.bytes
            running[index].backend = backend
        }
    }

    func finished(_ feed: String) {
        running.withLock { $0.removeAll { $0.name == feed } }
    }
}

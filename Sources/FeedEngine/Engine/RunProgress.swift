import Foundation
import Synchronization

/// The counters of a run's feeds while they are under way, for a progress display: read it as
/// often as wanted while ``Engine/run(feeds:live:progress:)`` goes on.
public final class RunProgress: Sendable {
    /// What one feed under way has done so far.
    public struct Feed: Sendable, Hashable {
        public var name: String
        public var startedAt: Date
        /// Responses received (pages, files, cache hits).
        public var responses: Int
        /// Records mapped and handed to the store.
        public var records: Int
        /// Bytes received.
        public var bytes: Int
    }

    private let running = Mutex<[(name: String, startedAt: Date, backend: EnginePassBackend)]>([])

    public init() {}

    /// The feeds under way, in the order they started.
    public var feeds: [Feed] {
        running.withLock { running in
            running.map { entry in
                let statistics = entry.backend.statistics.withLock { $0 }
                return Feed(
                    name: entry.name, startedAt: entry.startedAt, responses: statistics.requests,
                    records: statistics.records, bytes: statistics.bytes)
            }
        }
    }

    func started(_ feed: String, at date: Date, backend: EnginePassBackend) {
        running.withLock { $0.append((feed, date, backend)) }
    }

    func finished(_ feed: String) {
        running.withLock { $0.removeAll { $0.name == feed } }
    }
}

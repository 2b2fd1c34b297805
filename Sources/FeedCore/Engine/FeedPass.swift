import Foundation
import GRDB
import Synchronization

/// One feed's pass: what an adapter uses to fetch, write and reject.
///
/// Everything written through a pass lands in the feed's single transaction, committed when
/// ``FeedAdapter/run(_:)`` returns and rolled back when it throws: the store then holds either
/// the previous rows or the new ones, never a mix.
public final class FeedPass: Sendable {
    /// The feed's name.
    public let feed: String
    /// The run id (`_runs.id`) of this pass; rows it changes carry it in `_run`.
    public let runID: Int64
    /// When the pass started: the current time, or the engine's fixed ``Engine/startDate``
    /// (fixture replays). Derive dates such as "today" from it, never from `Date()`.
    public let startedAt: Date
    /// The real moment the pass started, for elapsed times.
    let clockStart: Date

    let store: EntityStore
    let fetcher: any Fetching
    let context: FetchContext
    let transaction: FeedTransaction
    let stats = Mutex(PassStatistics())

    init(
        feed: String, runID: Int64, startedAt: Date, clockStart: Date = Date(), store: EntityStore,
        fetcher: any Fetching, context: FetchContext, transaction: FeedTransaction
    ) {
        self.feed = feed
        self.runID = runID
        self.startedAt = startedAt
        self.clockStart = clockStart
        self.store = store
        self.fetcher = fetcher
        self.context = context
        self.transaction = transaction
    }

    /// Hides secrets in text the adapter puts in messages or rejects.
    public var redactor: Redactor { context.redactor }

    /// The folder relative paths are read from.
    public var baseDirectory: URL { context.baseDirectory }

    /// Milliseconds since the pass started.
    public var elapsedMilliseconds: Int { Int((Date().timeIntervalSince(clockStart) * 1000).rounded()) }

    /// Performs `request` through the engine's fetcher (retries, cache, limits) and counts it.
    ///
    /// A response that should refresh `_http_cache` is stored in the feed's transaction, so the
    /// cache only ever describes data that was committed.
    public func fetch(_ request: FetchRequest) async throws -> FetchResponse {
        do {
            let response = try await fetcher.fetch(request, context: context)
            stats.withLock { $0.count(response) }
            if let update = response.cacheUpdate {
                // Secrets the API repeated are sealed before compressing: the store never holds them.
                let entry = context.redactor.seal(update)
                // Compressed here, on the feed's task, not on the busy writer thread.
                let compressed = entry.bodyIsCached ? nil : BodyCompression.compress(entry.body)
                try await transaction.send { try $0.storeCache(entry, compressed: compressed) }
            }
            return response
        } catch let error as FetchError {
            stats.withLock { $0.attempts += error.attempts }
            throw error
        }
    }

    /// Writes records of the entities the feed declares.
    public func write(_ records: [EntityRecord]) async throws {
        guard !records.isEmpty else { return }
        // No secret is stored, even one the API echoed into a record.
        let (records, echoed) = EchoedSecrets.screen(records, redactor: context.redactor)
        try await reject(echoed)
        guard !records.isEmpty else { return }
        let hashes = records.map(ContentHash.of)
        try await transaction.send { try $0.write(records, hashes: hashes) }
    }

    /// Counts `count` records of `entity` as unchanged without writing them.
    ///
    /// For records an adapter knows to be the ones already stored, such as those of a page the
    /// server answered with 304 Not Modified: they add to the report's `unchanged` count, and
    /// their rows (including `_last_seen`) are left as they are. Not for `replace` entities, whose
    /// rows a pass does not deliver are deleted.
    public func countUnchanged(_ count: Int, entity: String) async throws {
        guard count > 0 else { return }
        try await transaction.send { try $0.countUnchanged(count, entity: entity) }
    }

    /// Keeps records that failed validation in `_rejects`, with their reasons.
    public func reject(_ rejects: [Reject]) async throws {
        guard !rejects.isEmpty else { return }
        let redacted = rejects.map { reject in
            var copy = reject
            copy.reason = context.redactor.redact(copy.reason)
            copy.raw = context.redactor.redact(copy.raw)
            return copy
        }
        try await transaction.send { try $0.reject(redacted) }
    }

    /// Adds a line to the feed's report (e.g. "2 duplicate types; the last one wins").
    public func note(_ text: String) {
        let text = context.redactor.redact(text)
        stats.withLock { $0.notes.append(text) }
    }

    /// The value the feed stored under `key` in `_state` by an earlier pass.
    public func state(_ key: String) throws -> String? {
        try store.read { db in
            try String.fetchOne(db, sql: "SELECT value FROM _state WHERE feed = ? AND key = ?", arguments: [feed, key])
        }
    }

    /// Stores `value` under `key` in `_state` (removes it for `nil`), committed with the pass.
    public func setState(_ key: String, _ value: String?) async throws {
        try await transaction.send { try $0.setState(key, value) }
    }

    /// Queues GET requests to `urls` in `_outbox`, committed with the pass and delivered after it.
    public func enqueueOutbox(_ urls: [String]) async throws {
        guard !urls.isEmpty else { return }
        // Kept with placeholders for the secrets, which are put back at delivery.
        let sealed = urls.map(context.redactor.seal)
        try await transaction.send { try $0.enqueueOutbox(sealed) }
    }

    /// Runs a read-only query over what the store held before this pass.
    ///
    /// Adapters use it for rules that depend on earlier data, such as not offering the same
    /// destination twice.
    public func query(_ sql: String, arguments: [FieldValue] = []) throws -> [[String: FieldValue]] {
        try store.query(sql, arguments: arguments)
    }

    /// Decodes a JSON body, turning decoding failures into a ``PayloadError`` with the JSON path.
    public func decodeJSON<T: Decodable>(_ type: T.Type, from response: FetchResponse) throws -> T {
        do {
            return try JSONDecoder().decode(type, from: response.body)
        } catch let error as DecodingError {
            throw payloadError(error, response: response)
        } catch {
            throw PayloadError(feed: feed, url: response.url, path: "$", message: "not valid JSON: \(error)")
        }
    }

    /// A ``PayloadError`` for a decoding failure of `response`.
    public func payloadError(_ error: DecodingError, response: FetchResponse) -> PayloadError {
        let (path, message): ([any CodingKey], String)
        switch error {
        case .typeMismatch(let type, let context):
            (path, message) = (context.codingPath, "expected \(type): \(context.debugDescription)")
        case .valueNotFound(let type, let context):
            (path, message) = (context.codingPath, "missing \(type) value")
        case .keyNotFound(let key, let context):
            (path, message) = (context.codingPath + [key], "missing key '\(key.stringValue)'")
        case .dataCorrupted(let context):
            let underlying = context.underlyingError.map { " (\($0))" } ?? ""
            (path, message) = (context.codingPath, "not valid JSON: \(context.debugDescription)\(underlying)")
        @unknown default:
            (path, message) = ([], String(describing: error))
        }
        return PayloadError(feed: feed, url: response.url, path: jsonPath(path), message: message)
    }
}

/// Counters of one pass, for the report and `_runs`.
struct PassStatistics: Sendable {
    var requests = 0
    var attempts = 0
    var bytes = 0
    var cacheHits = 0
    var staleURLs: [String] = []
    var oldestStaleAge: TimeInterval = 0
    var notes: [String] = []

    mutating func count(_ response: FetchResponse) {
        requests += 1
        attempts += response.attempts
        bytes += response.origin == .file ? response.body.count : response.bytesReceived
        switch response.origin {
        case .fresh, .notModified: cacheHits += 1
        case .stale(let age):
            staleURLs.append(response.url)
            oldestStaleAge = max(oldestStaleAge, age)
        case .network, .file: break
        }
    }
}

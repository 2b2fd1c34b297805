import FeedKit
import FeedStore
import Foundation
import Logging
import Synchronization

/// The engine's side of a ``FeedPass``: requests go through the run's fetcher, writes into the
/// feed's transaction, reads to the store, and counters into the pass's statistics.
final class EnginePassBackend: PassBackend {
    let feed: String
    let store: Store
    let fetcher: any Fetching
    let context: FetchContext
    let transaction: FeedTransaction
    let statistics = Mutex(PassStatistics())
    /// The outcome the pass recorded in its run row: set by its last job, on the store's writer
    /// thread, and read once the transaction committed.
    let recordedOutcome = Mutex<RunOutcome?>(nil)
    /// The credential `_state` the pass set (keys under ``FeedPass/credentialStatePrefix``), by
    /// key: kept even when the pass fails (``Engine`` writes them with the failed run), since a
    /// refresh token the endpoint rotated during the pass is the only one it still accepts.
    /// Each is also committed at once as it arrives (``setState(_:_:)``), so a process killed
    /// before the pass ends does not lose it.
    let credentials = Mutex<[String: String?]>([:])
    /// Whether `state` reads what earlier passes stored; false for a full refresh.
    let readsStoredState: Bool
    /// The feed's `schema:` contract, given to the entities the adapter declares during the pass.
    let contract: SchemaContract
    /// The fields of each entity the pass writes, which every record's ``ContentHash`` starts
    /// from, and whether the pass has written that entity yet.
    private let fields: Mutex<[String: EntityFields]>

    init(
        feed: String, store: Store, fetcher: any Fetching, context: FetchContext,
        transaction: FeedTransaction, bindings: [EntityBinding],
        readsStoredState: Bool = true, contract: SchemaContract = .evolve
    ) {
        self.readsStoredState = readsStoredState
        self.contract = contract
        self.fields = Mutex(
            Dictionary(bindings.map { ($0.schema.name, EntityFields($0.schema)) }) { first, _ in first })
        self.feed = feed
        self.store = store
        self.fetcher = fetcher
        self.context = context
        self.transaction = transaction
    }

    func fetch(_ request: FetchRequest) async throws -> FetchResponse {
        // An interrupted pass makes no more requests.
        try Task.checkCancellation()
        // Numbered when requested, so concurrent requests keep the order they were made in.
        let page = statistics.withLock { statistics in
            statistics.requested += 1
            return statistics.requested
        }
        do {
            var response = try await fetcher.fetch(request, context: context)
            response.page = page
            statistics.withLock { $0.count(response) }
            if let update = response.cacheUpdate {
                // Secrets the API repeated are sealed before compressing: the store never holds them.
                // Compressed and encoded here, on the feed's task, not on the busy writer thread.
                let write = CacheWrite(context.redactor.seal(update))
                try await transaction.send { try $0.storeCache(write) }
            }
            return response
        } catch let error as FetchError {
            statistics.withLock {
                $0.attempts += error.attempts
                // Every attempt was a request sent, though none was answered as hoped.
                $0.requests += error.attempts
            }
            throw error
        }
    }

    func write(_ records: [EntityRecord], source: RecordSource?) async throws {
        // No secret is stored, even one the API echoed into a record.
        let (records, echoed) = EchoedSecrets.screen(records, redactor: context.redactor, source: source)
        if !echoed.isEmpty { try await reject(echoed) }
        guard !records.isEmpty else { return }
        statistics.withLock { $0.records += records.count }
        // Batches hold one entity, or runs of one: look its fields up once a run.
        var runs: [String] = []
        for record in records where record.entity != runs.last { runs.append(record.entity) }
        let (fields, firstWrites) = self.fields.withLock { fields in
            var firstWrites: [(entity: String, fields: ContentHash)] = []
            for entity in runs {
                guard let entry = fields[entity], !entry.written else { continue }
                fields[entity]?.written = true
                firstWrites.append((entity, entry.hash))
            }
            return (fields, firstWrites)
        }
        for (entity, hash) in firstWrites { try await noteChangedFields(of: entity, now: hash) }
        var run = (entity: "", fields: ContentHash())
        let hashes = records.map { record in
            if record.entity != run.entity { run = (record.entity, fields[record.entity]?.hash ?? ContentHash()) }
            return ContentHash.of(record, fields: run.fields)
        }
        try await transaction.send { try $0.write(records, hashes: hashes) }
    }

    /// The `_state` key under which a feed keeps the hash of an entity's fields.
    static func fieldsStateKey(_ entity: String) -> String { "feedwork.fields." + entity }

    /// Keeps the hash of `entity`'s fields with the pass, and says in the report when it differs
    /// from the one the feed's last pass kept: every row the pass delivers is then written again
    /// (its content hash starts from the fields), so the note tells why they count as updated.
    private func noteChangedFields(of entity: String, now hash: ContentHash) async throws {
        let key = Self.fieldsStateKey(entity)
        let stored = try await store.state(feed: feed, key: key)
        guard stored != hash.hex else { return }
        if stored != nil {
            note(
                "the fields of '\(entity)' changed since the last pass: every row this pass delivers is written again with them"
            )
        }
        try await setState(key, hash.hex)
    }

    func reject(_ rejects: [Reject]) async throws {
        statistics.withLock { statistics in
            let room = Self.rejectsKeptForFailure - statistics.rejects.count
            if room > 0 { statistics.rejects += rejects.prefix(room) }
        }
        try await transaction.send { try $0.reject(rejects) }
    }

    /// The most rejects a failed pass keeps (its first ones): enough to say why it failed, and
    /// a bound on the memory a pass of millions of rejects holds.
    static let rejectsKeptForFailure = 10_000

    /// The pass's first rejects (at most ``rejectsKeptForFailure``), for a pass that fails: its
    /// transaction rolls them back, and the store keeps them with the failed run instead.
    var rejectsOfThePass: [Reject] { statistics.withLock { $0.rejects } }

    func countUnchanged(_ count: Int, entity: String) async throws {
        try await transaction.send { try $0.countUnchanged(count, entity: entity) }
    }

    func delete(_ keys: [String], entity: String) async throws {
        try await transaction.send { try $0.delete(keys, entity: entity) }
    }

    func note(_ text: String) {
        statistics.withLock { $0.notes.append(text) }
    }

    func state(_ key: String) async throws -> String? {
        readsStoredState || FeedPass.lastingStatePrefixes.contains(where: key.hasPrefix)
            ? try await store.state(feed: feed, key: key) : nil
    }

    func states(withPrefix prefix: String) async throws -> [String: String] {
        readsStoredState ? try await store.states(feed: feed, prefix: prefix) : [:]
    }

    /// Stores `value` under `key` with the pass; credentials (such as a refresh token the
    /// endpoint just rotated) durably at once, before the pass sends anything with them: a
    /// process killed mid-pass keeps them. That is a committed write of their own, or, once the
    /// pass's transaction holds SQLite's one writer (a long pass, a 401 mid-pass), a file set
    /// aside beside the store until the pass commits them.
    func setState(_ key: String, _ value: String?) async throws {
        if key.hasPrefix(FeedPass.credentialStatePrefix) {
            credentials.withLock { $0[key] = .some(value) }
            let (store, feed) = (store, feed)
            let committed = try await transaction.writeBeside {
                try await store.recordCredentials([key: value], feed: feed)
            }
            if committed { return }
            try await store.setAsideCredentials([key: value], feed: feed)
            log("credentials renewed while the pass's transaction holds the store: set aside beside it", level: .debug)
        }
        try await transaction.send { try $0.setState(key, value) }
    }

    func enqueueOutbox(_ sealedURLs: [String]) async throws {
        try await transaction.send { try $0.enqueueOutbox(sealedURLs) }
    }

    func declare(_ binding: EntityBinding) async throws {
        var binding = binding
        binding.contract = contract
        try await transaction.send { [binding] in try $0.declare(binding) }
        fields.withLock { fields in
            if fields[binding.schema.name] == nil { fields[binding.schema.name] = EntityFields(binding.schema) }
        }
    }

    func log(_ text: String, level: FeedPass.LogLevel) {
        context.logger.log(text, at: level)  // the logger names the feed in its metadata
    }

    func continueAfterCommit() {
        statistics.withLock { $0.continues = true }
    }

    func showProgress(_ text: String) {
        statistics.withLock { $0.progress = text }
    }

    /// Whether the adapter asked for another pass once this one commits.
    var continues: Bool { statistics.withLock { $0.continues } }

    var rows: any StoredRows { store }

    /// What the run record keeps of this pass: `ok`; `stale` when a response came from the
    /// cache because the network failed; else `ok_with_rejects` when records were rejected.
    func outcome(counts: WriteCounts, error: String?, finished: Date) -> RunOutcome {
        let statistics = statistics.withLock { $0 }
        let stale = statistics.staleURLs
        let status: FeedReport.Status = !stale.isEmpty ? .stale : counts.rejected > 0 ? .okWithRejects : .ok
        return RunOutcome(
            status: status, counts: counts, requests: statistics.requests,
            attempts: statistics.attempts, bytes: statistics.bytes, error: error, notes: statistics.notes,
            finished: finished, staleURLs: stale, oldestStaleAge: statistics.oldestStaleAge)
    }
}

/// The hash of an entity's fields, and whether the pass has written the entity yet.
private struct EntityFields: Sendable {
    var hash: ContentHash
    var written = false

    init(_ schema: EntitySchema) { hash = ContentHash(fieldsOf: schema) }
}

/// Counters of one pass, for the report and the run record.
struct PassStatistics: Sendable {
    /// Requests made so far, including those still under way: the last response's ``FetchResponse/page``.
    var requested = 0
    var requests = 0
    var attempts = 0
    var bytes = 0
    var cacheHits = 0
    /// Records handed to the store so far (before they are told new, changed or unchanged).
    var records = 0
    var staleURLs: [String] = []
    var oldestStaleAge: TimeInterval = 0
    var notes: [String] = []
    /// The pass's first rejects, kept for a pass that fails (``EnginePassBackend/rejectsOfThePass``).
    var rejects: [Reject] = []
    /// What the adapter last showed of its progress (``FeedPass/showProgress(_:)``).
    var progress: String?
    /// Whether the adapter asked for another pass once this one commits.
    var continues = false

    mutating func count(_ response: FetchResponse) {
        // A request retried twice is three requests; a file or a cache hit is one.
        requests += max(1, response.attempts)
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

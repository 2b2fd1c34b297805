import FeedKit
import FeedStore
import Foundation

/// What a feed's jobs do inside its PostgreSQL transaction: the PostgreSQL side of
/// ``PassWriting``, on the store's writer thread, with one ``PostgresEntityWriter`` per entity.
final class PostgresPassTransaction: PassWriting {
    let connection: PostgresConnection
    /// The server, for messages.
    package let location: String
    let feed: String
    let run: Int64
    let stamp: String
    private var writers: [String: PostgresEntityWriter] = [:]
    private var writerOrder: [String] = []
    private(set) var rejected = 0
    private(set) var firstReject: Reject?
    /// Responses with bodies not yet sent (``storeCache(_:)``), and their keys.
    private var heldCache: [CacheWrite] = []
    private var heldCacheKeys: Set<String> = []
    /// How many responses are held before they are sent, in one statement.
    static let cacheBatch = 8
    /// `_state` values not yet sent (``setState(_:_:)``), the last one of each key; `nil`
    /// removes the key.
    private var heldState: [String: String?] = [:]
    /// How many responses or state keys may be held, waiting for a moment the writer waits for
    /// the server anyway, before they are sent regardless.
    static let heldLimit = 4 * cacheBatch

    init(
        connection: PostgresConnection, location: String, feed: String, run: Int64, stamp: String,
        bindings: [EntityBinding]
    ) {
        self.connection = connection
        self.location = location
        self.feed = feed
        self.run = run
        self.stamp = stamp
        for binding in bindings { addWriter(binding) }
    }

    private func addWriter(_ binding: EntityBinding) {
        writers[binding.schema.name] = PostgresEntityWriter(
            schema: binding.schema, mode: binding.mode, feed: feed, run: run, stamp: stamp)
        writerOrder.append(binding.schema.name)
    }

    private func writer(of entity: String, for what: String) throws -> PostgresEntityWriter {
        guard let writer = writers[entity] else {
            throw StoreError(
                path: location, message: "feed '\(feed)' \(what) entity '\(entity)', which it does not declare")
        }
        return writer
    }

    /// Writes `records`, each entity's run of them as one set-based batch.
    ///
    /// The entity's writer reads the outcome of its COPY still in progress only when it sends a
    /// statement (``PostgresEntityWriter/settle(_:)``): a page whose records are only held is
    /// encoded while the server stores the last batch. When the writer is to wait for the
    /// server anyway, the held responses and state go first (``sendHeld()``).
    func write(_ records: [EntityRecord], hashes: [Int64]) throws {
        var start = 0
        while start < records.count {
            let entity = records[start].entity
            var end = start + 1
            while end < records.count, records[end].entity == entity { end += 1 }
            let writer = try writer(of: entity, for: "wrote")
            // Another writer's COPY is read before this one uses the connection.
            for other in writers.values where other !== writer { try other.settle(connection) }
            if writer.mayWait(writing: end - start), heldCache.count + heldState.count >= Self.cacheBatch {
                try sendHeld()
            }
            try writer.write(Array(records[start..<end]), hashes: Array(hashes[start..<end]), in: connection)
            start = end
        }
    }

    func countUnchanged(_ count: Int, entity: String) throws {
        try writer(of: entity, for: "counted").countUnchanged(count)
    }

    func delete(_ keys: [String], entity: String) throws {
        try settleWriters()
        try writer(of: entity, for: "deleted from").delete(keys, in: connection)
    }

    func reject(_ rejects: [Reject]) throws {
        try settleWriters()
        try StoreRejects.insert(rejects, run: run, feed: feed, in: PostgresSQLConnection(connection: connection))
        rejected += rejects.count
        if firstReject == nil { firstReject = rejects.first }
    }

    /// Holds a response with a body, to be sent with others in one statement (``sendHeld()``):
    /// a page then costs no round trip to the server of its own, nor a wait for the COPY the
    /// server may be storing. Nothing in the pass reads the cache. The held ones are sent when
    /// an entity's writer is to wait for the server anyway (``write(_:hashes:)``), when
    /// ``heldLimit`` of them wait, before a response of the same key or one without a body (a
    /// refresh of a stored row), and before the commit.
    func storeCache(_ write: CacheWrite) throws {
        guard write.entry.body != nil else {
            try sendHeld()
            try PostgresStore.storeCache(write, feed: feed, in: connection)
            return
        }
        if heldCacheKeys.contains(write.entry.key) { try sendHeld() }
        heldCache.append(write)
        heldCacheKeys.insert(write.entry.key)
        if heldCache.count >= Self.heldLimit { try sendHeld() }
    }

    /// Sends the held responses and state, ``cacheBatch`` responses a statement; call it before
    /// the transaction commits.
    func sendHeld() throws {
        try settleWriters()
        if !heldState.isEmpty {
            let values = heldState
            heldState.removeAll(keepingCapacity: true)
            try StoreState.set(values, feed: feed, in: PostgresSQLConnection(connection: connection))
        }
        guard !heldCache.isEmpty else { return }
        let writes = heldCache
        heldCache.removeAll(keepingCapacity: true)
        heldCacheKeys.removeAll(keepingCapacity: true)
        var start = 0
        while start < writes.count {
            let end = min(start + Self.cacheBatch, writes.count)
            try PostgresStore.storeCaches(Array(writes[start..<end]), feed: feed, in: connection)
            start = end
        }
    }

    /// Holds the value, sent with the held responses (``storeCache(_:)``): nothing in the pass's
    /// transaction reads `_state` (a pass reads the state its feed's last pass committed), and
    /// the last value of a key is the one stored.
    func setState(_ key: String, _ value: String?) throws {
        heldState[key] = .some(value)
        if heldState.count >= Self.heldLimit { try sendHeld() }
    }

    func enqueueOutbox(_ urls: [String]) throws {
        try settleWriters()
        try StoreOutbox.enqueue(urls, feed: feed, run: run, in: PostgresSQLConnection(connection: connection))
    }

    func declare(_ binding: EntityBinding) throws {
        let name = binding.schema.name
        if let writer = writers[name] {
            guard writer.schema != binding.schema || writer.mode != binding.mode else { return }
            throw StoreError(
                path: location,
                message: "feed '\(feed)' declared entity '\(name)' again with another schema or write mode")
        }
        try settleWriters()
        try PostgresStore.prepare([binding], in: connection)
        addWriter(binding)
    }

    func recordRun(_ outcome: RunOutcome) throws {
        try settleWriters()
        try PostgresRunFence.check(run: run, feed: feed, in: connection)
        try StoreRuns.record(run, outcome: outcome, in: PostgresSQLConnection(connection: connection))
    }

    func finishWrites() throws -> (counts: WriteCounts, notes: [String]) {
        try sendHeld()
        let writers = writerOrder.compactMap { self.writers[$0] }
        for writer in writers { try writer.deleteUnseen(in: connection) }
        try PostgresEntityTable.checkForeignKeys(ofPass: feed, entities: Set(writerOrder), in: connection)
        return writers.totals(rejected: rejected)
    }

    var replaceTallies: [ReplaceTally] {
        writerOrder.compactMap { writers[$0] }.filter { $0.mode == .replace }.map {
            $0.replaceTally(undelivered: $0.undelivered)
        }
    }

    /// Reads the outcome of a writer's COPY the server may still be storing (an entity writer
    /// does not wait for its held records' COPY): before any other statement, so a refused
    /// value is reported with its entity and record.
    private func settleWriters() throws {
        for writer in writers.values { try writer.settle(connection) }
    }

    package func close() {}

    func keepAlive() throws {
        try settleWriters()
        try connection.execute("SELECT 1")
    }
}

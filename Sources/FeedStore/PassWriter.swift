import FeedKit

/// What the jobs of a feed's pass do inside its transaction, on the store's writer thread,
/// once for every driver: records through each entity's writer (``EntityWriting``), rejects,
/// cached responses, state, outbox events and the run's outcome through the pass's
/// connection. Driven by ``FeedTransaction``; lives on its thread only.
package final class PassWriter {
    private let database: PassDatabase
    /// The store, for messages.
    private let location: String
    private let feed: String
    private let run: Int64
    /// The pass's time, which the rows it writes carry in `_last_seen`.
    private let stamp: String
    private var writers: [String: any EntityWriting] = [:]
    private var writerOrder: [String] = []
    private var rejected = 0
    /// The pass's first reject, for the message of a pass that rejects too many.
    package private(set) var firstReject: Reject?
    /// Responses with bodies not yet stored (``storeCache(_:)``), and their keys.
    private var heldCache: [CacheWrite] = []
    private var heldCacheKeys: Set<String> = []
    /// `_state` values not yet stored (``setState(_:_:)``), the last one of each key; `nil`
    /// removes the key.
    private var heldState: [String: String?] = [:]
    /// How many held responses are stored in one statement.
    package static let cacheBatch = 8
    /// How many responses or state keys may be held, waiting for a moment the writer waits for
    /// the database anyway, before they are stored regardless.
    package static let heldLimit = 4 * cacheBatch

    private var connection: any SQLConnection { database.connection }

    package init(
        database: PassDatabase, location: String, feed: String, run: Int64, stamp: String, bindings: [EntityBinding]
    ) {
        self.database = database
        self.location = location
        self.feed = feed
        self.run = run
        self.stamp = stamp
        for binding in bindings { addWriter(binding) }
    }

    private func addWriter(_ binding: EntityBinding) {
        writers[binding.schema.name] =
            database.writer?(binding)
            ?? SQLEntityWriter(
                schema: binding.schema, mode: binding.mode, feed: feed, run: run, stamp: stamp,
                connection: database.connection)
        writerOrder.append(binding.schema.name)
    }

    private func writer(of entity: String, for what: String) throws -> any EntityWriting {
        guard let writer = writers[entity] else {
            throw StoreError(
                path: location, message: "feed '\(feed)' \(what) entity '\(entity)', which it does not declare")
        }
        return writer
    }

    /// Starts writing an entity the adapter declared during the pass: creates or extends its
    /// table, records its schema and writes its view, all inside this transaction, so they roll
    /// back with it. The same binding again does nothing.
    ///
    /// - Throws: ``StoreError`` when the entity is already declared otherwise, or its table
    ///   cannot take the schema.
    package func declare(_ binding: EntityBinding) throws {
        let name = binding.schema.name
        if let writer = writers[name] {
            guard writer.schema != binding.schema || writer.mode != binding.mode else { return }
            throw StoreError(
                path: location,
                message: "feed '\(feed)' declared entity '\(name)' again with another schema or write mode")
        }
        try settleWriters()
        try database.prepare([binding])
        addWriter(binding)
    }

    /// Writes `records`, each entity's run of them as one batch; `hashes` are their content
    /// hashes, computed before the records reached this thread (the single writer thread is
    /// the pipeline's bottleneck). When a writer is to wait for the database anyway, the held
    /// responses and state go first (``sendHeld()``).
    package func write(_ records: [EntityRecord], hashes: [Int64]) throws {
        var start = 0
        while start < records.count {
            let entity = records[start].entity
            var end = start + 1
            while end < records.count, records[end].entity == entity { end += 1 }
            let writer = try writer(of: entity, for: "wrote")
            // Another writer's write still under way is read before this one uses the connection.
            if writers.count > 1 {
                for other in writers.values where other !== writer { try other.settle() }
            }
            if writer.mayWait(writing: end - start), heldCache.count + heldState.count >= Self.cacheBatch {
                try sendHeld()
            }
            try writer.write(records[start..<end], hashes: hashes[start..<end])
            start = end
        }
        for writer in writers.values { try writer.endJob() }
    }

    /// Counts records of `entity` as unchanged without writing them.
    package func countUnchanged(_ count: Int, entity: String) throws {
        try writer(of: entity, for: "counted").tally.counts.unchanged += count
    }

    /// Deletes the feed's rows of `entity` with these keys (and their child rows), leaving a
    /// tombstone in `_tombstones` for each and counting them as deleted.
    package func delete(_ keys: [String], entity: String) throws {
        try settleWriters()
        let writer = try writer(of: entity, for: "deleted from")
        try delete(.keys(keys), of: writer)
    }

    /// Deletes `rows` of `writer`'s entity (``EntityDeletion``) once it sent what it holds.
    private func delete(_ rows: EntityDeletion.Rows, of writer: any EntityWriting) throws {
        try writer.sendAll()
        let deleted = try EntityDeletion.delete(
            rows, of: writer.schema, feed: feed, run: run, stamp: stamp, on: connection)
        let undelivered = if case .undelivered = rows { true } else { false }
        writer.tally.countDeleted(deleted, undelivered: undelivered)
    }

    package func reject(_ rejects: [Reject]) throws {
        try settleWriters()
        try StoreRejects.insert(rejects, run: run, feed: feed, in: connection)
        rejected += rejects.count
        if firstReject == nil { firstReject = rejects.first }
    }

    /// Stores a response, or on a database whose pass holds its writes
    /// (``PassDatabase/holdsWrites``) holds one with a body, to be stored with others in one
    /// statement (``sendHeld()``): a page then costs no round trip of its own, nor a wait for
    /// the rows the server may be storing. Nothing in the pass reads the cache. The held ones are
    /// stored when an entity's writer is to wait for the database anyway
    /// (``write(_:hashes:)``), when ``heldLimit`` of them wait, before a response of the same
    /// key or one without a body (a refresh of a stored row), and before the commit.
    package func storeCache(_ write: CacheWrite) throws {
        guard database.holdsWrites else {
            if write.entry.body == nil {
                try StoreResponseCache.refresh(write.entry, in: connection)
            } else {
                try StoreResponseCache.store([write], feed: feed, in: connection)
            }
            return
        }
        guard write.entry.body != nil else {
            try sendHeld()
            try StoreResponseCache.refresh(write.entry, in: connection)
            return
        }
        if heldCacheKeys.contains(write.entry.key) { try sendHeld() }
        heldCache.append(write)
        heldCacheKeys.insert(write.entry.key)
        if heldCache.count >= Self.heldLimit { try sendHeld() }
    }

    /// Stores the value, or holds it to be stored with the held responses (``storeCache(_:)``):
    /// nothing in the pass's transaction reads `_state` (a pass reads the state its feed's last pass
    /// committed), and the last value of a key is the one stored.
    package func setState(_ key: String, _ value: String?) throws {
        guard database.holdsWrites else { return try StoreState.set([key: value], feed: feed, in: connection) }
        heldState[key] = .some(value)
        if heldState.count >= Self.heldLimit { try sendHeld() }
    }

    /// Stores the held responses and state, ``cacheBatch`` responses a statement; the driver
    /// calls it before the transaction commits.
    package func sendHeld() throws {
        try settleWriters()
        if !heldState.isEmpty {
            let values = heldState
            heldState.removeAll(keepingCapacity: true)
            try StoreState.set(values, feed: feed, in: connection)
        }
        guard !heldCache.isEmpty else { return }
        let writes = heldCache
        heldCache.removeAll(keepingCapacity: true)
        heldCacheKeys.removeAll(keepingCapacity: true)
        var start = 0
        while start < writes.count {
            let end = min(start + Self.cacheBatch, writes.count)
            try StoreResponseCache.store(writes[start..<end], feed: feed, in: connection)
            start = end
        }
    }

    package func enqueueOutbox(_ urls: [String]) throws {
        try settleWriters()
        try StoreOutbox.enqueue(urls, feed: feed, run: run, in: connection)
    }

    /// Records the pass's outcome in its run row, committed with the pass.
    package func recordRun(_ outcome: RunOutcome) throws {
        try settleWriters()
        try database.checkRunMayCommit()
        try StoreRuns.record(run, outcome: outcome, in: connection)
    }

    /// Finishes the entities' writes (deleting unseen rows in `replace` mode), checks that no
    /// row points at nothing through an enforced relation, sums the counts and says which keys
    /// were delivered twice.
    package func finishWrites() throws -> (counts: WriteCounts, notes: [String]) {
        try sendHeld()
        let writers = writerOrder.compactMap { self.writers[$0] }
        for writer in writers {
            if writer.mode == .replace { try delete(.undelivered, of: writer) } else { try writer.sendAll() }
        }
        if try database.foreignKeysBroken() {
            throw try ForeignKey.violation(ofPass: feed, entities: Set(writerOrder), on: connection)
        }
        return writers.totals(rejected: rejected)
    }

    /// What the `replace` entities' deletions did, once ``finishWrites()`` made them, for
    /// ``DeleteLimit``.
    package var replaceTallies: [ReplaceTally] {
        writerOrder.compactMap { writers[$0] }.filter { $0.mode == .replace }
            .map { $0.tally.replaceTally(entity: $0.schema.name) }
    }

    /// Shows the database that the session of a transaction waiting for its next job is alive
    /// (``FeedTransaction``'s `keepAlive`).
    package func keepAlive() throws {
        try settleWriters()
        try connection.execute("SELECT 1", [])
    }

    /// Releases what the writers hold; the driver calls it once, as the transaction ends.
    package func close() {
        for writer in writers.values { writer.close() }
    }

    /// Reads the outcome of writes the database may still be storing (an entity writer does
    /// not wait for its held records' `COPY`): before any other statement, so a refused value
    /// is reported with its entity and record.
    private func settleWriters() throws {
        for writer in writers.values { try writer.settle() }
    }
}

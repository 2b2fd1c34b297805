import FeedKit
import FeedStore
import Foundation
import GRDB

/// What a feed's jobs can do inside its SQLite transaction. Lives on the transaction's thread
/// only.
final class SQLitePassTransaction: PassWriting {
    let db: Database
    /// The store file, for messages.
    let path: String
    let feed: String
    let run: Int64
    let stamp: String
    private var writers: [String: SQLiteEntityWriter] = [:]
    private var writerOrder: [String] = []
    /// The writer of the last record written: records come in runs of one entity, and comparing
    /// names costs less than hashing them.
    private var lastWriter: SQLiteEntityWriter?
    private(set) var rejected = 0
    /// The pass's first reject, for the message of a pass that rejects too many.
    private(set) var firstReject: Reject?

    init(db: Database, path: String, feed: String, run: Int64, stamp: String, bindings: [EntityBinding]) {
        self.db = db
        self.path = path
        self.feed = feed
        self.run = run
        self.stamp = stamp
        for binding in bindings {
            writers[binding.schema.name] = SQLiteEntityWriter(
                schema: binding.schema, mode: binding.mode, feed: feed, run: run, stamp: stamp)
            writerOrder.append(binding.schema.name)
        }
    }

    /// Starts writing an entity the adapter declared during the pass: creates or extends its
    /// table, records its schema and writes its view, all inside this transaction, so they roll
    /// back with it. The same binding again does nothing.
    ///
    /// - Throws: ``StoreError`` when the entity is already declared otherwise, or its table
    ///   cannot take the schema.
    func declare(_ binding: EntityBinding) throws {
        let name = binding.schema.name
        if let writer = writers[name] {
            guard writer.schema != binding.schema || writer.mode != binding.mode else { return }
            throw StoreError(
                path: path,
                message: "feed '\(feed)' declared entity '\(name)' again with another schema or write mode")
        }
        try SQLiteStore.prepare([binding], in: db, path: path)
        writers[name] = SQLiteEntityWriter(
            schema: binding.schema, mode: binding.mode, feed: feed, run: run, stamp: stamp)
        writerOrder.append(name)
    }

    /// Writes `records`; `hashes` are their content hashes, computed before the records reached
    /// this thread (the single writer thread is the pipeline's bottleneck).
    func write(_ records: [EntityRecord], hashes: [Int64]) throws {
        for (record, hash) in zip(records, hashes) {
            if let writer = lastWriter, writer.schema.name == record.entity {
                try writer.write(record, hash: hash, in: db)
                continue
            }
            guard let writer = writers[record.entity] else {
                throw StoreError(
                    path: path, message: "feed '\(feed)' wrote entity '\(record.entity)', which it does not declare")
            }
            lastWriter = writer
            try writer.write(record, hash: hash, in: db)
        }
        // Records a writer holds back go in before the job ends: nothing else waits for them.
        for writer in writers.values { try writer.flush(in: db) }
    }

    /// Releases what the writers hold on to; call at the end of the transaction.
    func close() {
        for writer in writers.values { writer.close() }
    }

    func countUnchanged(_ count: Int, entity: String) throws {
        guard let writer = writers[entity] else {
            throw StoreError(
                path: path, message: "feed '\(feed)' counted entity '\(entity)', which it does not declare")
        }
        writer.countUnchanged(count)
    }

    func delete(_ keys: [String], entity: String) throws {
        guard let writer = writers[entity] else {
            throw StoreError(
                path: path, message: "feed '\(feed)' deleted from entity '\(entity)', which it does not declare")
        }
        try writer.delete(keys, in: db)
    }

    func reject(_ rejects: [Reject]) throws {
        try StoreRejects.insert(rejects, run: run, feed: feed, in: SQLiteSQLConnection(db: db))
        rejected += rejects.count
        if firstReject == nil { firstReject = rejects.first }
    }

    /// Stores a response in `_http_cache` (its body in `_http_cache_body`), with statements
    /// prepared once per connection: a pass stores one response a page.
    func storeCache(_ write: CacheWrite) throws {
        let entry = write.entry
        guard let body = entry.body else {
            try StoreResponseCache.refresh(entry, in: SQLiteSQLConnection(db: db))
            return
        }
        try db.cachedStatement(
            sql: """
                INSERT INTO _http_cache(key, feed, url, status, headers, etag, last_modified, fetched_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT(key) DO UPDATE SET feed = excluded.feed, url = excluded.url, status = excluded.status,
                    headers = excluded.headers, etag = excluded.etag, last_modified = excluded.last_modified,
                    fetched_at = excluded.fetched_at
                """
        ).execute(arguments: [
            entry.key, feed, entry.url, entry.status, write.headersJSON, entry.etag, entry.lastModified,
            Timestamp.string(entry.fetchedAt),
        ])
        try db.cachedStatement(
            sql: """
                INSERT INTO _http_cache_body(key, body, body_size) VALUES (?, ?, ?)
                ON CONFLICT(key) DO UPDATE SET body = excluded.body, body_size = excluded.body_size
                """
        ).execute(arguments: [entry.key, write.compressed ?? body, write.compressed.map { _ in body.count }])
    }

    func setState(_ key: String, _ value: String?) throws {
        try StoreState.set([key: value], feed: feed, in: SQLiteSQLConnection(db: db))
    }

    func enqueueOutbox(_ urls: [String]) throws {
        try StoreOutbox.enqueue(urls, feed: feed, run: run, in: SQLiteSQLConnection(db: db))
    }

    /// Records the pass's outcome in its run row, committed with the pass.
    func recordRun(_ outcome: RunOutcome) throws {
        try StoreRuns.record(run, outcome: outcome, in: SQLiteSQLConnection(db: db))
    }

    /// Finishes the entities' writes (deleting unseen rows in `replace` mode), checks that no
    /// row points at nothing through an enforced relation, sums the counts and says which keys
    /// were delivered twice.
    func finishWrites() throws -> (counts: WriteCounts, notes: [String]) {
        let writers = writerOrder.compactMap { self.writers[$0] }
        for writer in writers { try writer.deleteUnseen(in: db) }
        try SQLiteEntityTable.checkForeignKeys(ofPass: feed, entities: Set(writerOrder), in: db, path: path)
        return writers.totals(rejected: rejected)
    }

    var replaceTallies: [ReplaceTally] {
        writerOrder.compactMap { writers[$0] }.filter { $0.mode == .replace }.map {
            $0.replaceTally(undelivered: $0.undelivered)
        }
    }
}

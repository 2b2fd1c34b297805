import FeedKit
import FeedStore
import Foundation

/// Writes one feed's records of one entity to PostgreSQL inside the feed's transaction,
/// counting what changed, with the counts and resulting rows of the SQLite writer
/// (``SQLiteEntityWriter``).
///
/// Writes are set-based: each batch is COPYed into temporary staging tables and merged into
/// the entity's table by one statement (``PostgresWriterSQL``), not one statement per record;
/// the child rows of the records it wrote follow, COPYed and inserted the same way. A key delivered twice in one batch is resolved there (the last delivery wins); a key
/// delivered again in a later batch is recognized by its `_last_seen`, which is the pass's stamp.
/// Two shortcuts skip the staging tables: records that can only be new are COPYed straight in
/// (`+Direct`), and records delivered unchanged only have their rows touched (`+Touch`).
///
/// Used from one thread (the store's writer thread) and for one transaction: the staging
/// tables are created on the first batch and dropped at commit, so the connection must be
/// inside `BEGIN` (outside a transaction block they would be dropped as soon as made).
final class PostgresEntityWriter {
    /// The pass's connection, inside its `BEGIN`.
    let connection: PostgresConnection
    let schema: EntitySchema
    let mode: WriteMode
    let feed: String
    let run: Int64
    /// The pass's timestamp (``Timestamp``, ISO 8601 with milliseconds); rows delivered by
    /// this pass carry it in `_last_seen`.
    let stamp: String
    /// ``stamp`` as a `timestamptz`'s microseconds since 2000-01-01, for COPY's binary format.
    let stampMicroseconds: Int64?
    var tally = EntityWriteTally()

    let sql: PostgresWriterSQL
    /// Whether the staging tables exist in this transaction, and may hold the last batch.
    private var staged = false
    /// Keys written in this pass, while the table held none of the feed's rows when it began;
    /// `nil` once it is known to hold some (see ``split(_:hashes:_:)``).
    var freshKeys: KeyFilter?
    var checkedFreshness = false
    /// Records known to be new, not yet sent, as their rows in COPY's format: COPYed together
    /// once ``directBatch`` of them are waiting, before any other statement reads the entity's
    /// table, and when the pass ends (``sendAll()``); see `+Direct`.
    var pendingDirect = PostgresCopyBuffer()
    /// The rows of each child list (``PostgresWriterSQL/children``) of ``pendingDirect``'s records.
    var pendingChildren: [PostgresCopyBuffer]
    /// The keys of ``pendingDirect``.
    var pendingKeys: Set<String> = []
    /// Records delivered once in their batch whose keys the Bloom filter may have seen, not
    /// held with ``pendingDirect`` nor in its keys: looked up in the table together when the
    /// held records are sent, then held too or, when the table holds their key, staged.
    var doubtful: Part = ([], [])
    /// The keys of ``doubtful``.
    var doubtfulKeys: Set<String> = []
    /// The table and keys of the rows of this writer's COPY whose outcome is not read yet
    /// (``settle(_:)``).
    var unsettledCopy: (table: String, keys: [String])?
    /// The held batch's COPY that follows the one the server is storing, not sent yet (see
    /// ``sendDirect(_:waiting:)``).
    var deferredCopy: (statement: String, table: String, rows: PostgresCopyBuffer)?
    /// The ordinal of the next record in the pass, across batches.
    private var nextOrdinal: Int64 = 0

    init(
        schema: EntitySchema, mode: WriteMode, feed: String, run: Int64, stamp: String, connection: PostgresConnection
    ) {
        self.connection = connection
        self.schema = schema
        self.mode = mode
        self.feed = feed
        self.run = run
        self.stamp = stamp
        stampMicroseconds = PostgresCopyBinary.timestampMicroseconds(stamp)
        sql = PostgresWriterSQL(schema: schema, mode: mode)
        pendingChildren = Array(repeating: PostgresCopyBuffer(), count: sql.children.count)
    }

    /// Writes a batch of this entity's records, counting each as inserted, updated, unchanged or
    /// duplicate.
    ///
    /// - Parameter hashes: the records' ``ContentHash``es, in the same order.
    /// - Throws: ``PostgresEntityError`` naming the entity, and the column and record when the
    ///   server refuses a value.
    func write(_ records: [EntityRecord], hashes: [Int64], in connection: PostgresConnection)
        throws(PostgresEntityError)
    {
        guard !records.isEmpty else { return }
        if let stranger = records.first(where: { $0.entity != schema.name }) {
            throw PostgresEntityError(
                entity: schema.name, table: sql.table,
                message: "a record of entity '\(stranger.entity)' was given to this entity's writer")
        }
        let (direct, doubted, rest) = try split(records, hashes: hashes, connection)
        holdDirect(direct)
        holdDoubtful(doubted)
        let held = pendingDirect.count + doubtful.records.count
        if held >= Self.directBatch {
            try sendDirect(connection, waiting: false)
        } else if held >= Self.deferredAfter {
            try sendDeferred(connection)
        }
        guard !rest.records.isEmpty else { return }
        try sendDirect(connection)
        try writeThroughTable(rest, connection)
    }

    /// Writes records that may be in the table already: touching the unchanged rows, staging
    /// the others.
    func writeThroughTable(_ part: Part, _ connection: PostgresConnection) throws(PostgresEntityError) {
        let toStage = try touchUnchanged(part, connection)
        guard !toStage.records.isEmpty else { return }
        try stage(toStage.records, hashes: toStage.hashes, connection)
    }

    /// Writes `records` through the staging tables.
    private func stage(_ records: [EntityRecord], hashes: [Int64], _ connection: PostgresConnection)
        throws(PostgresEntityError)
    {
        if staged {
            try execute(sql.truncate, [], on: sql.stage, "cannot empty the staging tables", connection)
        } else {
            try execute(sql.createTemporary, [], on: sql.stage, "cannot create the staging tables", connection)
            staged = true
        }
        let first = nextOrdinal
        nextOrdinal += Int64(records.count)
        try stageRows(records, hashes: hashes, from: first, connection)
        let written = try merge(keys: records.map(\.key), connection)
        guard !sql.children.isEmpty, !written.isEmpty else { return }
        let offsets = written.map { Int($0 - first) }.filter { records.indices.contains($0) }
        for child in sql.children {
            guard try stageChildren(child, of: records, at: offsets, from: first, connection) else { continue }
            try execute(child.insert, [feed], on: child.table, "cannot insert the rows", connection)
        }
    }

    /// COPYs the records into the staging table.
    private func stageRows(
        _ records: [EntityRecord], hashes: [Int64], from first: Int64, _ connection: PostgresConnection
    ) throws(PostgresEntityError) {
        let rows = Array(zip(records.indices, zip(records, hashes)))
        try copy(sql.copyRows, into: sql.table, rows, key: { $0.1.0.key }, connection) { item, row in
            let (offset, (record, hash)) = item
            row.append(String(first + Int64(offset)))
            row.append(record.key)
            row.append(String(hash))
            Self.append(record.values, to: &row)
        }
    }

    /// COPYs the rows of the list `child` of the records at `offsets` (the ones the batch
    /// wrote) into its staging table, each row with its parent's ordinal.
    ///
    /// - Returns: whether there were any.
    private func stageChildren(
        _ child: PostgresWriterSQL.Child, of records: [EntityRecord], at offsets: [Int], from first: Int64,
        _ connection: PostgresConnection
    ) throws(PostgresEntityError) -> Bool {
        let rows = Self.childRows(child.name, of: records, at: offsets)
        guard !rows.isEmpty else { return false }
        try copy(child.copy, into: child.table, rows, key: { records[$0.offset].key }, connection) { item, row in
            row.append(String(first + Int64(item.offset)))
            row.append(records[item.offset].key)
            row.append(String(item.position))
            Self.append(item.values, to: &row)
        }
        return true
    }

    /// Merges the staged batch in one statement (``PostgresWriterSQL/mergeBatch``) and counts it.
    ///
    /// - Returns: the ordinals of the records whose rows it inserted or rewrote, ascending:
    ///   their child rows are to be written (an unchanged batch has none).
    private func merge(keys: [String], _ connection: PostgresConnection) throws(PostgresEntityError) -> [Int64] {
        let result = try execute(
            sql.mergeBatch, [feed, stamp, String(run)], on: sql.table, "cannot merge the batch", connection)
        let figures = (0..<4).map { Int(result[0, $0] ?? "") ?? 0 }
        tally.counts.inserted += figures[0]
        tally.counts.updated += figures[1]
        tally.counts.unchanged += figures[2]
        let keys = result[0, 5].flatMap { try? JSONDecoder().decode([String].self, from: Data($0.utf8)) }
        tally.countDuplicates(figures[3], keys: keys ?? [])
        return (result[0, 4] ?? "").split(separator: ",").compactMap { Int64($0) }
    }

    /// Runs `statement`, naming `table` and what it was for when the server refuses it; the
    /// outcome of this writer's COPY still in progress, if any, is read first (``settle(_:)``).
    @discardableResult
    func execute(
        _ statement: String, _ parameters: [String?], on table: String, _ what: String,
        _ connection: PostgresConnection
    ) throws(PostgresEntityError) -> PostgresRows {
        try settle(connection)
        do {
            return try connection.execute(statement, parameters)
        } catch {
            throw .server(error, entity: schema.name, table: table, doing: what)
        }
    }
}

/// The writer as a pass drives it (``PassWriter``), on the pass's connection.
extension PostgresEntityWriter: EntityWriting {
    func write(_ records: ArraySlice<EntityRecord>, hashes: ArraySlice<Int64>) throws {
        try write(Array(records), hashes: Array(hashes), in: connection)
    }

    /// Nothing: records held back wait for a batch, or for the next statement to settle them.
    func endJob() throws {}

    func settle() throws { try settle(connection) }

    /// Sends the new records still held (`+Direct`) and reads the outcome.
    func sendAll() throws { try sendDirect(connection) }

    /// Nothing: the writer's staging tables go with the transaction.
    func close() {}
}

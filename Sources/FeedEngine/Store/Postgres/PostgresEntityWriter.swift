import FeedKit

/// Writes one feed's records of one entity to PostgreSQL inside the feed's transaction,
/// counting what changed, with the counts and resulting rows of the SQLite writer
/// (``EntityWriter``).
///
/// Writes are set-based: each batch is COPYed into temporary staging tables and merged into
/// the entity's tables by a few statements (``PostgresWriterSQL``), not one statement per
/// record. A key delivered twice in one batch is resolved there (the last delivery wins); a key
/// delivered again in a later batch is recognized by its `_last_seen`, which is the pass's stamp.
///
/// Used from one thread (the store's writer thread) and for one transaction: the staging
/// tables are created on the first batch and dropped at commit, so the connection must be
/// inside `BEGIN` (outside a transaction block they would be dropped as soon as made).
final class PostgresEntityWriter {
    let schema: EntitySchema
    let mode: WriteMode
    let feed: String
    let run: Int64
    /// The pass's timestamp (``Timestamp``, ISO 8601 with milliseconds); rows delivered by
    /// this pass carry it in `_last_seen`.
    let stamp: String
    /// What the pass did so far; only this writer (and its extensions) changes it.
    var counts = WriteCounts()
    /// The first few distinct keys delivered twice in this pass, for the report's note.
    private(set) var duplicateExamples: [String] = []

    let sql: PostgresWriterSQL
    /// Whether the staging tables exist in this transaction, and may hold the last batch.
    private var staged = false
    /// The ordinal of the next record in the pass, across batches.
    private var nextOrdinal: Int64 = 0

    init(schema: EntitySchema, mode: WriteMode, feed: String, run: Int64, stamp: String) {
        self.schema = schema
        self.mode = mode
        self.feed = feed
        self.run = run
        self.stamp = stamp
        sql = PostgresWriterSQL(schema: schema, mode: mode)
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
        if staged {
            try execute(sql.truncate, [], on: sql.stage, "cannot empty the staging tables", connection)
        } else {
            try execute(sql.createTemporary, [], on: sql.stage, "cannot create the staging tables", connection)
            staged = true
        }
        let first = nextOrdinal
        nextOrdinal += Int64(records.count)
        try stageRows(records, hashes: hashes, from: first, connection)
        try stageChildren(records, from: first, connection)
        try merge(connection)
    }

    /// COPYs the records into the staging table.
    private func stageRows(
        _ records: [EntityRecord], hashes: [Int64], from first: Int64, _ connection: PostgresConnection
    ) throws(PostgresEntityError) {
        do {
            try connection.copy(sql.copyRows) { stream in
                var row: [String?] = []
                row.reserveCapacity(3 + schema.columns.count)
                for (offset, (record, hash)) in zip(records, hashes).enumerated() {
                    row.removeAll(keepingCapacity: true)
                    row.append(String(first + Int64(offset)))
                    row.append(record.key)
                    row.append(String(hash))
                    for value in record.values { row.append(PostgresCopyText.text(value)) }
                    try stream.appendRow(row)
                }
            }
        } catch let error as PostgresError {
            throw .server(
                error, entity: schema.name, table: sql.table, doing: "a value was refused", keys: records.map(\.key))
        } catch {
            throw PostgresEntityError(entity: schema.name, table: sql.table, message: "\(error)")
        }
    }

    /// COPYs the records' child rows into the children's staging tables, each row with its
    /// parent's ordinal.
    private func stageChildren(_ records: [EntityRecord], from first: Int64, _ connection: PostgresConnection)
        throws(PostgresEntityError)
    {
        for (child, copy) in zip(sql.children, sql.copyChildren) {
            var keys: [String] = []
            let hasRows = records.contains { !($0.children[child.name] ?? []).isEmpty }
            guard hasRows else { continue }
            do {
                try connection.copy(copy) { stream in
                    var row: [String?] = []
                    for (offset, record) in records.enumerated() {
                        for (position, values) in (record.children[child.name] ?? []).enumerated() {
                            row.removeAll(keepingCapacity: true)
                            row.append(String(first + Int64(offset)))
                            row.append(record.key)
                            row.append(String(position))
                            for value in values { row.append(PostgresCopyText.text(value)) }
                            try stream.appendRow(row)
                            keys.append(record.key)
                        }
                    }
                }
            } catch let error as PostgresError {
                throw .server(error, entity: schema.name, table: child.table, doing: "a value was refused", keys: keys)
            } catch {
                throw PostgresEntityError(entity: schema.name, table: child.table, message: "\(error)")
            }
        }
    }

    /// Plans the staged batch, counts it, and carries the plan out.
    private func merge(_ connection: PostgresConnection) throws(PostgresEntityError) {
        let planParameters = mode == .append ? [feed, String(run)] : [feed, stamp]
        let planned = try execute(sql.planBatch, planParameters, on: sql.table, "cannot plan the batch", connection)
        let figures = (0..<7).map { Int(planned[0, $0] ?? "") ?? 0 }
        counts.inserted += figures[0]
        counts.updated += figures[1]
        counts.unchanged += figures[2]
        counts.duplicates += figures[3]
        let (inserts, updates, touches) = (figures[4], figures[5], figures[6])
        let all = [feed, String(run), stamp]
        if inserts > 0 { try execute(sql.insert, all, on: sql.table, "cannot insert the new rows", connection) }
        if updates > 0 { try execute(sql.update, all, on: sql.table, "cannot update the changed rows", connection) }
        if touches > 0 {
            try execute(sql.touch, [feed, stamp], on: sql.table, "cannot mark the unchanged rows seen", connection)
        }
        if inserts + updates > 0 {
            for (child, statements) in zip(sql.children, sql.childWrites) {
                if updates > 0 {
                    try execute(statements.delete, [feed], on: child.table, "cannot delete the old rows", connection)
                }
                try execute(statements.insert, [feed], on: child.table, "cannot insert the rows", connection)
            }
        }
        if figures[3] > 0 && duplicateExamples.count < 3 {
            let keys = try execute(sql.duplicateKeys, [], on: sql.table, "cannot read the duplicate keys", connection)
            for row in 0..<keys.count {
                guard let key = keys[row, 0], duplicateExamples.count < 3, !duplicateExamples.contains(key) else {
                    continue
                }
                duplicateExamples.append(key)
            }
        }
    }

    /// Runs `statement`, naming `table` and what it was for when the server refuses it.
    @discardableResult
    func execute(
        _ statement: String, _ parameters: [String?], on table: String, _ what: String,
        _ connection: PostgresConnection
    ) throws(PostgresEntityError) -> PostgresRows {
        do {
            return try connection.execute(statement, parameters)
        } catch {
            throw .server(error, entity: schema.name, table: table, doing: what)
        }
    }

    /// Counts records the adapter did not write because it knows them to be unchanged.
    func countUnchanged(_ count: Int) { counts.unchanged += count }

    /// The report's line about keys delivered twice in this pass, if any were; the SQLite
    /// writer's words.
    var duplicateNote: String? {
        guard counts.duplicates > 0 else { return nil }
        let examples = duplicateExamples.map { "'\($0)'" }.joined(separator: ", ")
        let more = duplicateExamples.count == 3 ? ", ..." : ""
        return
            "\(counts.duplicates) duplicate \(schema.name) key(s) in this pass (\(examples)\(more)); the last one wins"
    }
}

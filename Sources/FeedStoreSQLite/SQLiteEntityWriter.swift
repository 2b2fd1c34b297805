import FeedKit
import FeedStore
import GRDB
import GRDBSQLite

/// Writes one feed's records of one entity inside the feed's transaction, counting what changed.
///
/// Change detection is by content: each row keeps a hash of its values, so a record delivered
/// again with the same values counts as unchanged and is not rewritten (only `_last_seen` moves).
final class SQLiteEntityWriter {
    /// The pass's connection, in its transaction.
    let db: Database
    let schema: EntitySchema
    let mode: WriteMode
    let feed: String
    let run: Int64
    /// The pass's timestamp; rows delivered by this pass carry it in `_last_seen`.
    let stamp: String
    var tally = EntityWriteTally()

    private let table: String
    private let insertSQL: String
    private let updateSQL: String
    /// Per child list, in schema order: its name and the SQL to delete and insert its rows.
    private let childSQL: [(name: String, delete: String, insert: String)]

    /// Statements prepared on first use and kept for the transaction, so the write path never
    /// looks a statement up by its SQL text.
    private var lookupStatement: SQLiteRawStatement?
    private var appendLookupStatement: SQLiteRawStatement?
    private var appendDuplicateStatement: SQLiteRawStatement?
    private var insertStatement: SQLiteRawStatement?
    private var updateStatement: SQLiteRawStatement?
    private var touchStatement: SQLiteRawStatement?
    private var childStatements: [(delete: SQLiteRawStatement, insert: SQLiteRawStatement)]?
    /// Where the texts of the record being written are bound from; see ``SQLiteTextBindings``.
    private let texts = SQLiteTextBindings()

    /// The statement in `slot`, prepared on first use. `constants` binds the parameters that
    /// are the same for every record of the pass (feed, run, stamp) once: SQLite keeps bindings
    /// across resets, so each record binds only its own values.
    private func prepared(
        _ slot: ReferenceWritableKeyPath<SQLiteEntityWriter, SQLiteRawStatement?>, _ sql: @autoclosure () -> String,
        _ db: Database, constants: (SQLiteRawStatement) -> Void
    ) throws -> SQLiteRawStatement {
        if let statement = self[keyPath: slot] { return statement }
        let statement = try SQLiteRawStatement(db, sql())
        constants(statement)
        self[keyPath: slot] = statement
        return statement
    }

    init(schema: EntitySchema, mode: WriteMode, feed: String, run: Int64, stamp: String, db: Database) {
        self.db = db
        self.schema = schema
        self.mode = mode
        self.feed = feed
        self.run = run
        self.stamp = stamp
        table = SQLIdentifier.quoted(schema.name)
        let columns = schema.columns.map { SQLIdentifier.quoted($0.name) }
        let all = EntityColumns.common.map(SQLIdentifier.quoted) + columns
        let placeholders = (1...all.count).map { "?\($0)" }.joined(separator: ", ")
        insertSQL = "INSERT INTO \(table) (\(all.joined(separator: ", "))) VALUES (\(placeholders))"
        let assignments = columns.enumerated().map { "\($1) = ?\($0 + 7)" }
        updateSQL =
            "UPDATE \(table) SET _hash = ?3, _run = ?4, _last_seen = ?6"
            + (assignments.isEmpty ? "" : ", " + assignments.joined(separator: ", ")) + " WHERE rowid = ?1"
        // Built once: quoting names and joining SQL for every record was a large part of the write path.
        childSQL = schema.children.map { child in
            let childTable = SQLIdentifier.quoted(schema.childTableName(child))
            let names = (["_feed", "_key", "_position"] + child.columns.map(\.name)).map(SQLIdentifier.quoted)
            let placeholders = (1...names.count).map { "?\($0)" }.joined(separator: ", ")
            return (
                child.name, "DELETE FROM \(childTable) WHERE _feed = ?1 AND _key = ?2",
                "INSERT INTO \(childTable) (\(names.joined(separator: ", "))) VALUES (\(placeholders))"
            )
        }
    }

    /// The inserts of the pass while the table held none of the feed's rows when the pass began
    /// (``SQLiteFirstPassInserts``); `nil` when it held some. Known from the first record on.
    private var firstPass: SQLiteFirstPassInserts?
    private var checkedFreshness = false
    /// Keys written in this pass to a first-pass table without a primary key, which cannot
    /// catch a repeated key itself.
    private var freshKeys: KeyFilter?

    /// Whether `record` can go into ``firstPass``: the feed had no rows when the pass began, and
    /// the table catches a repeated key or the pass has not written this key yet.
    private func joinsFirstPass(_ record: EntityRecord, in db: Database) throws -> Bool {
        if !checkedFreshness {
            checkedFreshness = true
            let probe = try SQLiteRawStatement(db, "SELECT 1 FROM \(table) WHERE _feed = ?1 LIMIT 1")
            probe.bind(feed, at: 1)
            let hasRows = try probe.step(db)
            probe.reset()
            if !hasRows {
                let keyed =
                    try String.fetchOne(
                        db,
                        sql:
                            "SELECT group_concat(name, ',') FROM (SELECT name FROM pragma_table_info(?) WHERE pk > 0 ORDER BY pk)",
                        arguments: [schema.name]) == "_feed,_key"
                firstPass = SQLiteFirstPassInserts(schema: schema, keyed: keyed, feed: feed, run: run, stamp: stamp)
                if !keyed { freshKeys = KeyFilter() }
            }
        }
        guard firstPass != nil else { return false }
        guard freshKeys != nil else { return true }
        let identity = KeyFilter.hash(key: record.key, salt: 0)
        let seen = freshKeys?.mightContain(identity) ?? true
        freshKeys?.insert(identity)
        return !seen
    }

    /// Writes `record`, counting it as inserted, updated, unchanged or duplicate.
    ///
    /// A record known to be new may wait in the writer until ``flush(in:)``, to be inserted
    /// with others in one statement; anything else first inserts those waiting, so that its
    /// lookups see them.
    ///
    /// - Parameter hash: the record's ``ContentHash``.
    func write(_ record: EntityRecord, hash: Int64, in db: Database) throws {
        if try joinsFirstPass(record, in: db), let firstPass {
            if try firstPass.add(record, hash: hash, in: db) { try flush(in: db) }
            return
        }
        try flush(in: db)
        try writeOneAtATime(record, hash: hash, in: db)
    }

    /// Writes `record` on its own, looking its key up first.
    private func writeOneAtATime(_ record: EntityRecord, hash: Int64, in db: Database) throws {
        switch mode {
        case .merge, .replace:
            let lookup = try prepared(
                \.lookupStatement,
                "SELECT rowid, _hash, _last_seen FROM \(table) WHERE _feed = ?1 AND _key = ?2 LIMIT 1", db
            ) { $0.bind(feed, at: 1) }
            lookup.bind(record.key, at: 2, texts: texts)
            defer { texts.reset() }
            if try lookup.step(db) {
                let rowid = lookup.int64(column: 0)
                let storedHash = lookup.int64(column: 1)
                let seenThisPass = lookup.text(column: 2, equals: stamp)
                lookup.reset()
                if seenThisPass { countDuplicate(record.key) }
                if storedHash == hash {
                    if !seenThisPass { tally.counts.unchanged += 1 }
                    try touch(rowid: rowid, in: db)
                } else {
                    if !seenThisPass { tally.counts.updated += 1 }
                    try update(rowid: rowid, record: record, hash: hash, in: db)
                }
            } else {
                lookup.reset()
                texts.reset()
                try insert(record, hash: hash, in: db)
                tally.counts.inserted += 1
            }
        case .append:
            // A key this pass already appended: the later record replaces that version.
            let earlier = try prepared(
                \.appendDuplicateStatement,
                "SELECT rowid, _hash FROM \(table) WHERE _feed = ?1 AND _key = ?2 AND _run = ?3 LIMIT 1", db
            ) {
                $0.bind(feed, at: 1)
                $0.bind(run, at: 3)
            }
            earlier.bind(record.key, at: 2, texts: texts)
            if try earlier.step(db) {
                let rowid = earlier.int64(column: 0)
                let storedHash = earlier.int64(column: 1)
                earlier.reset()
                texts.reset()
                countDuplicate(record.key)
                if storedHash != hash { try update(rowid: rowid, record: record, hash: hash, in: db) }
                return
            }
            earlier.reset()
            texts.reset()
            let lookup = try prepared(
                \.appendLookupStatement, "SELECT 1 FROM \(table) WHERE _feed = ?1 AND _key = ?2 AND _hash = ?3 LIMIT 1",
                db
            ) { $0.bind(feed, at: 1) }
            lookup.bind(record.key, at: 2, texts: texts)
            lookup.bind(hash, at: 3)
            let exists = try lookup.step(db)
            lookup.reset()
            texts.reset()
            if exists {
                tally.counts.unchanged += 1
            } else {
                try insert(record, hash: hash, in: db)
                tally.counts.inserted += 1
            }
        }
    }

    /// Inserts the records waiting since ``write(_:hash:in:)``, many rows per statement. Call
    /// before anything else reads or writes the entity's tables.
    func flush(in db: Database) throws {
        guard let firstPass else { return }
        tally.counts.inserted += try firstPass.flush(texts: texts, in: db) { record, hash in
            try writeOneAtATime(record, hash: hash, in: db)
        }
    }

    private func countDuplicate(_ key: String) { tally.countDuplicates(keys: [key]) }

    /// Binds the pass's constants of the insert and update statements: feed, run and stamps.
    private func bindConstants(_ statement: SQLiteRawStatement) {
        statement.bind(feed, at: 1)
        statement.bind(run, at: 4)
        statement.bind(stamp, at: 5)
        statement.bind(stamp, at: 6)
    }

    private func insert(_ record: EntityRecord, hash: Int64, in db: Database) throws {
        let statement = try prepared(\.insertStatement, insertSQL, db, constants: bindConstants)
        statement.bind(record.key, at: 2, texts: texts)
        statement.bind(hash, at: 3)
        for (index, value) in record.values.enumerated() { statement.bind(value, at: Int32(index + 7), texts: texts) }
        try run(statement, in: db)
        try writeChildren(of: record, replacing: false, in: db)
    }

    private func update(rowid: Int64, record: EntityRecord, hash: Int64, in db: Database) throws {
        let statement = try prepared(\.updateStatement, updateSQL, db, constants: bindConstants)
        statement.bind(hash, at: 3)
        statement.bind(rowid, at: 1)
        for (index, value) in record.values.enumerated() { statement.bind(value, at: Int32(index + 7), texts: texts) }
        try run(statement, in: db)
        try writeChildren(of: record, replacing: true, in: db)
    }

    /// Steps `statement`, which returns no rows, and makes its bound texts' memory available again.
    private func run(_ statement: SQLiteRawStatement, in db: Database) throws {
        defer { texts.reset() }
        try statement.step(db)
        statement.reset()
    }

    private func touch(rowid: Int64, in db: Database) throws {
        let statement = try prepared(\.touchStatement, "UPDATE \(table) SET _last_seen = ?2 WHERE rowid = ?1", db) {
            $0.bind(stamp, at: 2)
        }
        statement.bind(rowid, at: 1)
        try statement.step(db)
        statement.reset()
    }

    private func writeChildren(of record: EntityRecord, replacing: Bool, in db: Database) throws {
        guard !childSQL.isEmpty else { return }
        let statements: [(delete: SQLiteRawStatement, insert: SQLiteRawStatement)]
        if let existing = childStatements {
            statements = existing
        } else {
            statements = try childSQL.map {
                (try SQLiteRawStatement(db, $0.delete), try SQLiteRawStatement(db, $0.insert))
            }
            for statement in statements {
                statement.delete.bind(feed, at: 1)
                statement.insert.bind(feed, at: 1)
            }
            childStatements = statements
        }
        for (child, statement) in zip(childSQL, statements) {
            if replacing {
                let delete = statement.delete
                delete.bind(record.key, at: 2, texts: texts)
                try run(delete, in: db)
            }
            guard let rows = record.rows(ofChild: child.name), !rows.isEmpty else { continue }
            let insert = statement.insert
            for (position, row) in rows.enumerated() {
                insert.bind(record.key, at: 2, texts: texts)
                insert.bind(Int64(position), at: 3)
                for (index, value) in row.enumerated() { insert.bind(value, at: Int32(index + 4), texts: texts) }
                try run(insert, in: db)
            }
        }
    }

    /// Clears the bindings of the writer's statements, which point into its ``SQLiteTextBindings``;
    /// call before the writer goes away, on the thread that holds the connection.
    func close() {
        let statements = [
            lookupStatement, appendLookupStatement, appendDuplicateStatement, insertStatement, updateStatement,
            touchStatement,
        ]
        for statement in statements.compactMap({ $0 }) + (childStatements ?? []).flatMap({ [$0.delete, $0.insert] }) {
            statement.clearBindings()
        }
        firstPass?.clearBindings()
    }
}

/// The writer as a pass drives it (``PassWriter``), on the pass's connection.
extension SQLiteEntityWriter: EntityWriting {
    func write(_ records: ArraySlice<EntityRecord>, hashes: ArraySlice<Int64>) throws {
        for (record, hash) in zip(records, hashes) { try write(record, hash: hash, in: db) }
    }

    /// Inserts the records held for a multi-row insert.
    func endJob() throws { try flush(in: db) }

    /// Nothing: each statement has ended when its call returns.
    func settle() throws {}

    /// Never: SQLite's statements run in this process.
    func mayWait(writing count: Int) -> Bool { false }

    /// Inserts the records held for a multi-row insert.
    func sendAll() throws { try flush(in: db) }
}

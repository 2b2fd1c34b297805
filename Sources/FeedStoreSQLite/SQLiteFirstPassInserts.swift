import FeedKit
import FeedStore
import GRDB

/// The inserts of a pass into a table that held none of its feed's rows when the pass began: every
/// record is new unless the pass delivers its key twice, so records wait here and go in many
/// rows a statement (``SQLiteMultiRowInsert``), their child rows likewise.
///
/// A key delivered twice is caught by the table's primary key `(_feed, _key)`: the statement
/// skips the row (`ON CONFLICT DO NOTHING`) and inserts fewer rows than it was given. Its rows
/// are then taken out again and its records written one at a time by the writer, in order, so
/// that the later record wins and counts as a duplicate, exactly as one at a time from the
/// start. A table without a primary key (an entity that keeps history) cannot tell; its writer
/// hands over only the records a ``KeyFilter`` says it has not seen.
final class SQLiteFirstPassInserts {
    private let schema: EntitySchema
    /// The quoted table name.
    private let table: String
    /// Whether the table has its primary key, which catches a repeated key.
    private let keyed: Bool
    private let feed: String
    private let run: Int64
    private let stamp: String
    private var pending: [(record: EntityRecord, hash: Int64)] = []
    /// The statements of the table and of each child table (in schema order), made on first use.
    private var inserts: (table: SQLiteMultiRowInsert, children: [SQLiteMultiRowInsert])?

    init(schema: EntitySchema, keyed: Bool, feed: String, run: Int64, stamp: String) {
        self.schema = schema
        table = SQLIdentifier.quoted(schema.name)
        self.keyed = keyed
        self.feed = feed
        self.run = run
        self.stamp = stamp
    }

    /// Keeps `record` for the next ``flush(texts:in:writingOneAtATime:)``; returns whether a
    /// statement's worth waits.
    func add(_ record: EntityRecord, hash: Int64, in db: Database) throws -> Bool {
        pending.append((record, hash))
        return try pending.count >= statements(in: db).table.maxRows
    }

    /// Inserts the records waiting, with their child rows.
    ///
    /// - Parameter writeOneAtATime: writes a record of a statement that met a key already in
    ///   the table, through the writer's lookups.
    /// - Returns: the records inserted here (not those written one at a time).
    func flush(
        texts: SQLiteTextBindings, in db: Database,
        writingOneAtATime writeOneAtATime: (EntityRecord, Int64) throws -> Void
    ) throws -> Int {
        guard !pending.isEmpty else { return 0 }
        let statements = try self.statements(in: db)
        let pending = self.pending
        self.pending.removeAll(keepingCapacity: true)
        // Every parameter is bound again for each row: bindings outlive a statement's run.
        let columnCount = schema.columns.count
        var inserted: [Range<Int>] = []  // since the last statement that met a key already written
        var insertedCount = 0
        for rows in statements.table.statements(for: pending.count) {
            let count = try statements.table.insert(rows, texts: texts, in: db) { index, statement, base in
                let (record, hash) = pending[index]
                statement.bind(record.key, at: base + 2, texts: texts)
                statement.bind(hash, at: base + 3)
                for column in 0..<columnCount {
                    let value = column < record.values.count ? record.values[column] : .null
                    statement.bind(value, at: base + Int32(column + 7), texts: texts)
                }
            }
            guard count < rows.count else {
                inserted.append(rows)
                insertedCount += rows.count
                continue
            }
            // A key the pass already wrote: this statement's rows (the last `count` rowids) go
            // out again, and its records are written one at a time, in order.
            if count > 0 {
                try db.execute(
                    sql: "DELETE FROM \(table) WHERE rowid > ?", arguments: [db.lastInsertedRowID - Int64(count)])
            }
            try insertChildren(of: pending, rows: inserted, statements: statements, texts: texts, in: db)
            inserted = []
            for index in rows { try writeOneAtATime(pending[index].record, pending[index].hash) }
        }
        try insertChildren(of: pending, rows: inserted, statements: statements, texts: texts, in: db)
        return insertedCount
    }

    /// Inserts the child rows of the records at `rows` of `pending`.
    private func insertChildren(
        of pending: [(record: EntityRecord, hash: Int64)], rows ranges: [Range<Int>],
        statements: (table: SQLiteMultiRowInsert, children: [SQLiteMultiRowInsert]), texts: SQLiteTextBindings,
        in db: Database
    ) throws {
        guard !ranges.isEmpty else { return }
        for (child, insert) in zip(schema.children, statements.children) {
            // Each child row as its record's index and its position in the record's list.
            var rows: [(record: Int, position: Int)] = []
            for range in ranges {
                for index in range {
                    guard let list = pending[index].record.rows(ofChild: child.name) else { continue }
                    for position in list.indices { rows.append((index, position)) }
                }
            }
            try insert.insert(rows.count, texts: texts, in: db) { index, statement, base in
                let (recordIndex, position) = rows[index]
                let record = pending[recordIndex].record
                statement.bind(record.key, at: base + 2, texts: texts)
                statement.bind(Int64(position), at: base + 3)
                let row = record.rows(ofChild: child.name)?[position] ?? []
                for column in 0..<child.columns.count {
                    statement.bind(column < row.count ? row[column] : .null, at: base + Int32(column + 4), texts: texts)
                }
            }
        }
    }

    private func statements(in db: Database) throws -> (table: SQLiteMultiRowInsert, children: [SQLiteMultiRowInsert]) {
        if let inserts { return inserts }
        let (feed, run, stamp) = (self.feed, self.run, self.stamp)
        let columns = schema.columns.map { SQLIdentifier.quoted($0.name) }
        let table = SQLiteMultiRowInsert(
            table: self.table, names: EntityColumns.common.map(SQLIdentifier.quoted) + columns,
            conflict: keyed ? "ON CONFLICT (_feed, _key) DO NOTHING" : "", db: db
        ) { statement, base in
            statement.bind(feed, at: base + 1)
            statement.bind(run, at: base + 4)
            statement.bind(stamp, at: base + 5)
            statement.bind(stamp, at: base + 6)
        }
        let children = schema.children.map { child in
            SQLiteMultiRowInsert(
                table: SQLIdentifier.quoted(schema.childTableName(child)),
                names: (EntityColumns.childCommon + child.columns.map(\.name)).map(SQLIdentifier.quoted), db: db
            ) { statement, base in statement.bind(feed, at: base + 1) }
        }
        inserts = (table, children)
        return (table, children)
    }

    /// Drops the statements' bindings, which may point into a ``SQLiteTextBindings`` buffer.
    func clearBindings() {
        inserts?.table.clearBindings()
        for insert in inserts?.children ?? [] { insert.clearBindings() }
    }
}

extension EntityRecord {
    /// The rows of the child list `name`; found by comparing names rather than hashing `name`,
    /// which costs more for the few lists a record has.
    func rows(ofChild name: String) -> [[FieldValue]]? {
        for (childName, rows) in children where childName == name { return rows }
        return nil
    }
}

import FeedKit

/// The entity writer written once for every driver: a statement per record through the
/// pass's ``SQLConnection``, so that a driver that brings no writer of its own
/// (``PassDatabase/writer``) stores records exactly as SQLite's and PostgreSQL's do. Each record
/// is looked up by its key, then touched (unchanged), rewritten (changed) or inserted, with its
/// child rows; `append` keeps one row per version.
///
/// It is the correct default, not the fast one: SQLite's writer inserts many rows per prepared
/// statement and PostgreSQL's streams them with `COPY`, which is why both keep their own.
///
/// Lives on the pass's thread only; counts what it did as ``EntityWriting`` asks.
package final class SQLEntityWriter: EntityWriting {
    package let schema: EntitySchema
    package let mode: WriteMode
    package var tally = EntityWriteTally()

    private let connection: any SQLConnection
    private let feed: String
    private let run: Int64
    /// The pass's timestamp; rows it delivers carry it in `_last_seen`.
    private let stamp: String
    private let statements: Statements

    /// - Parameters:
    ///   - connection: the pass's connection, in its transaction.
    ///   - stamp: the pass's timestamp (ISO 8601 UTC, ``Timestamp``).
    package init(
        schema: EntitySchema, mode: WriteMode, feed: String, run: Int64, stamp: String, connection: any SQLConnection
    ) {
        self.schema = schema
        self.mode = mode
        self.feed = feed
        self.run = run
        self.stamp = stamp
        self.connection = connection
        statements = Statements(schema)
    }

    package func write(_ records: ArraySlice<EntityRecord>, hashes: ArraySlice<Int64>) throws {
        for (record, hash) in zip(records, hashes) {
            switch mode {
            case .merge, .replace: try merge(record, hash: hash)
            case .append: try append(record, hash: hash)
            }
        }
    }

    /// Writes `record` over the feed's row of its key, if there is one.
    private func merge(_ record: EntityRecord, hash: Int64) throws {
        let key = SQLValue.text(record.key)
        guard let stored = try connection.rows(statements.lookup, [.text(stamp), .text(feed), key]).first else {
            try insert(record, hash: hash)
            tally.counts.inserted += 1
            return
        }
        let seenThisPass = stored[1].integer == 1
        if seenThisPass { tally.countDuplicates(keys: [record.key]) }
        if stored[0].integer == hash {
            if !seenThisPass { tally.counts.unchanged += 1 }
            try connection.execute(statements.touch, [.text(stamp), .text(feed), key])
        } else {
            if !seenThisPass { tally.counts.updated += 1 }
            try update(record, hash: hash, where: statements.update, [.text(feed), key])
        }
    }

    /// Adds `record` as a new version of its key, unless the feed holds that version already;
    /// a key this pass appended already has that version replaced.
    private func append(_ record: EntityRecord, hash: Int64) throws {
        let key = SQLValue.text(record.key)
        if let earlier = try connection.rows(statements.appendedThisRun, [.text(feed), key, .integer(run)]).first {
            tally.countDuplicates(keys: [record.key])
            if earlier[0].integer != hash {
                try update(record, hash: hash, where: statements.updateAppended, [.text(feed), key, .integer(run)])
            }
            return
        }
        if try connection.rows(statements.version, [.text(feed), key, .integer(hash)]).isEmpty {
            try insert(record, hash: hash)
            tally.counts.inserted += 1
        } else {
            tally.counts.unchanged += 1
        }
    }

    private func insert(_ record: EntityRecord, hash: Int64) throws {
        let common: [SQLValue] = [
            .text(feed), .text(record.key), .integer(hash), .integer(run), .text(stamp), .text(stamp),
        ]
        try connection.execute(statements.insert, common + record.values.map(Self.value))
        try insertChildren(of: record)
    }

    /// Rewrites the row `statement` finds with `selection` (its last parameters), and its child rows.
    private func update(_ record: EntityRecord, hash: Int64, where statement: String, _ selection: [SQLValue]) throws {
        let changed: [SQLValue] = [.integer(hash), .integer(run), .text(stamp)]
        try connection.execute(statement, changed + record.values.map(Self.value) + selection)
        for delete in statements.deleteChildren { try connection.execute(delete, [.text(feed), .text(record.key)]) }
        try insertChildren(of: record)
    }

    private func insertChildren(of record: EntityRecord) throws {
        for (child, insert) in zip(schema.children, statements.insertChildren) {
            guard let rows = record.children[child.name] else { continue }
            for (position, row) in rows.enumerated() {
                let common: [SQLValue] = [.text(feed), .text(record.key), .integer(Int64(position))]
                try connection.execute(insert, common + row.map(Self.value))
            }
        }
    }

    /// A record's value as its column takes it: a boolean as 1 or 0 (PostgreSQL reads those
    /// as `true` and `false`), text for decimals, times and JSON, which each database converts
    /// to its column's type.
    private static func value(_ value: FieldValue) -> SQLValue {
        switch value {
        case .null: .null
        case .integer(let number): .integer(number)
        case .real(let number): .real(number)
        case .text(let text): .text(text)
        case .bool(let flag): .integer(flag ? 1 : 0)
        }
    }

    /// Nothing is held: each record's statements ran when ``write(_:hashes:)`` returned.
    package func endJob() throws {}
    package func settle() throws {}
    package func mayWait(writing count: Int) -> Bool { false }
    package func sendAll() throws {}
    package func close() {}
}

extension SQLEntityWriter {
    /// The writer's statements, built once from the entity's schema: quoting names and joining
    /// SQL for every record would cost more than the statements.
    struct Statements {
        /// The feed's row of a key: its `_hash`, and 1 when this pass delivered it already (its
        /// `_last_seen` is the pass's stamp). Stamp, feed, key.
        let lookup: String
        /// Moves `_last_seen` to the stamp. Stamp, feed, key.
        let touch: String
        /// Rewrites a merged row: hash, run, stamp, the schema's columns, then feed and key.
        let update: String
        /// The `_hash` of the version this run appended of a key. Feed, key, run.
        let appendedThisRun: String
        /// Rewrites the version this run appended: as ``update``, then feed, key and run.
        let updateAppended: String
        /// Whether the feed holds a version of a key with a hash. Feed, key, hash.
        let version: String
        /// Inserts a row: the common columns (``EntityColumns/common``), then the schema's.
        let insert: String
        /// Per child list, in schema order: deletes a record's rows (feed, key), and inserts
        /// one (feed, key, position, then the list's columns).
        let deleteChildren: [String]
        let insertChildren: [String]

        init(_ schema: EntitySchema) {
            let quoted = SQLIdentifier.quoted
            let table = quoted(schema.name)
            let columns = schema.columns.map { quoted($0.name) }
            let ofKey = "WHERE _feed = ? AND _key = ?"
            lookup = "SELECT _hash, CASE WHEN _last_seen = ? THEN 1 ELSE 0 END FROM \(table) \(ofKey) LIMIT 1"
            touch = "UPDATE \(table) SET _last_seen = ? \(ofKey)"
            let assignments = (["_hash", "_run", "_last_seen"] + columns).map { "\($0) = ?" }.joined(separator: ", ")
            update = "UPDATE \(table) SET \(assignments) \(ofKey)"
            appendedThisRun = "SELECT _hash FROM \(table) \(ofKey) AND _run = ? LIMIT 1"
            updateAppended = "UPDATE \(table) SET \(assignments) \(ofKey) AND _run = ?"
            version = "SELECT 1 FROM \(table) \(ofKey) AND _hash = ? LIMIT 1"
            insert = Self.insert(into: table, EntityColumns.common.map(quoted) + columns)
            deleteChildren = schema.children.map { "DELETE FROM \(quoted(schema.childTableName($0))) \(ofKey)" }
            insertChildren = schema.children.map { child in
                Self.insert(
                    into: quoted(schema.childTableName(child)),
                    (EntityColumns.childCommon + child.columns.map(\.name)).map(quoted))
            }
        }

        private static func insert(into table: String, _ columns: [String]) -> String {
            let placeholders = Array(repeating: "?", count: columns.count).joined(separator: ", ")
            return "INSERT INTO \(table) (\(columns.joined(separator: ", "))) VALUES (\(placeholders))"
        }
    }
}

import FeedKit

/// The entity writer written once for every driver, on the pass's ``SQLConnection`` alone, so
/// that a driver that brings no writer of its own (``PassDatabase/writer``) stores records
/// exactly as SQLite's and PostgreSQL's do.
///
/// Each batch of records (a page, as ``PassWriter`` hands it over) costs a few statements, not a
/// few per record: the feed's rows of the batch's keys are read at once, each record is judged
/// in order against them (and against the records before it, so a key delivered twice counts
/// as SQLite's and PostgreSQL's writers count it: ``SQLEntityWriter/Batch``), then the batch's
/// touches, rewrites and inserts are written, many rows per statement where the database
/// allows. Nothing is held between batches.
///
/// It is the correct default, not the fastest: SQLite's writer binds each record's values in
/// place with prepared statements and PostgreSQL's streams them with `COPY`, which is why both
/// keep their own (`Benchmarks/README.md` has the figures).
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

    /// The most parameters one statement binds (the dialect's ``SQLDialect/parameterLimit``).
    private let parameterLimit: Int

    /// - Parameters:
    ///   - connection: the pass's connection, in its transaction.
    ///   - stamp: the pass's timestamp (ISO 8601 UTC, ``Timestamp``).
    ///   - parameterLimit: the most parameters a statement binds; the dialect's by default.
    package init(
        schema: EntitySchema, mode: WriteMode, feed: String, run: Int64, stamp: String, connection: any SQLConnection,
        parameterLimit: Int? = nil
    ) {
        self.schema = schema
        self.mode = mode
        self.feed = feed
        self.run = run
        self.stamp = stamp
        self.connection = connection
        statements = Statements(schema)
        self.parameterLimit = parameterLimit ?? connection.dialect.parameterLimit
    }

    package func write(_ records: ArraySlice<EntityRecord>, hashes: ArraySlice<Int64>) throws {
        guard !records.isEmpty else { return }
        var batch = Batch()
        switch mode {
        case .merge, .replace: try judgeMerged(records, hashes, into: &batch)
        case .append: try judgeAppended(records, hashes, into: &batch)
        }
        try apply(batch)
    }

    /// Judges each record against the feed's row of its key: new (inserted), the same
    /// content (touched), or changed (rewritten); a key this pass delivered already is a
    /// duplicate, and its last record wins.
    private func judgeMerged(
        _ records: ArraySlice<EntityRecord>, _ hashes: ArraySlice<Int64>, into batch: inout Batch
    ) throws {
        // The content hash of each key's row, and whether this pass delivered it already.
        var stored: [String: (hash: Int64, seen: Bool)] = [:]
        for row in try storedRows(of: records, statement: statements.lookup, marking: .text(stamp)) {
            guard let key = row[0].text, let hash = row[1].integer else { continue }
            stored[key] = (hash, row[2].integer == 1)
        }
        for (record, hash) in zip(records, hashes) {
            let key = record.key
            defer { stored[key] = (hash, true) }
            guard let row = stored[key] else {
                batch.insert(record, hash: hash)
                tally.counts.inserted += 1
                continue
            }
            if row.seen { tally.countDuplicates(keys: [key]) }
            if row.hash == hash {
                if !row.seen {
                    tally.counts.unchanged += 1
                    batch.touched.append(key)
                }
            } else {
                if !row.seen { tally.counts.updated += 1 }
                batch.rewrite(record, hash: hash)
            }
        }
    }

    /// Judges each record against the feed's versions of its key: a version it holds already
    /// is unchanged, another is inserted; a key this run appended already is a duplicate, and
    /// its last record rewrites that version.
    private func judgeAppended(
        _ records: ArraySlice<EntityRecord>, _ hashes: ArraySlice<Int64>, into batch: inout Batch
    ) throws {
        var versions: [String: Set<Int64>] = [:]
        // The hash of the version this run appended of a key.
        var appended: [String: Int64] = [:]
        for row in try storedRows(of: records, statement: statements.versions, marking: .integer(run)) {
            guard let key = row[0].text, let hash = row[1].integer else { continue }
            versions[key, default: []].insert(hash)
            if row[2].integer == 1 { appended[key] = hash }
        }
        for (record, hash) in zip(records, hashes) {
            let key = record.key
            if let current = appended[key] {
                tally.countDuplicates(keys: [key])
                if current != hash {
                    batch.rewrite(record, hash: hash)
                    appended[key] = hash
                }
            } else if versions[key]?.contains(hash) == true {
                tally.counts.unchanged += 1
            } else {
                batch.insert(record, hash: hash)
                tally.counts.inserted += 1
                appended[key] = hash
            }
        }
    }

    /// The feed's rows of the keys of `records`, read by `statement` (marker, feed, then the
    /// keys), as many keys per statement as the parameters allow.
    private func storedRows(
        of records: ArraySlice<EntityRecord>, statement: (Int) -> String, marking marker: SQLValue
    ) throws -> [[SQLValue]] {
        var keys: [String] = []
        var seen: Set<String> = []
        for record in records where seen.insert(record.key).inserted { keys.append(record.key) }
        var rows: [[SQLValue]] = []
        for chunk in keys.chunks(of: parameterLimit - 2) {
            rows += try connection.rows(statement(chunk.count), [marker, .text(feed)] + chunk.map(SQLValue.text))
        }
        return rows
    }

    /// Writes what `batch` decided: touches, rewrites (with their child rows deleted first),
    /// then the new rows and every child row to write.
    private func apply(_ batch: Batch) throws {
        for chunk in batch.touched.chunks(of: parameterLimit - 2) {
            let arguments = [.text(stamp), .text(feed)] + chunk.map(SQLValue.text)
            try connection.execute(statements.touch(chunk.count), arguments)
        }
        for (record, hash) in batch.rewritten {
            var arguments: [SQLValue] = [.integer(hash), .integer(run), .text(stamp)]
            arguments += record.values.map(Self.value)
            arguments += [.text(feed), .text(record.key)]
            if mode == .append { arguments.append(.integer(run)) }
            try connection.execute(mode == .append ? statements.updateAppended : statements.update, arguments)
        }
        if !statements.deleteChildren.isEmpty {
            for chunk in batch.childrenReplaced.chunks(of: parameterLimit - 1) {
                let arguments = [.text(feed)] + chunk.map(SQLValue.text)
                for delete in statements.deleteChildren { try connection.execute(delete(chunk.count), arguments) }
            }
        }
        try insert(
            batch.inserted.map { record, hash in
                [.text(feed), .text(record.key), .integer(hash), .integer(run), .text(stamp), .text(stamp)]
                    + record.values.map(Self.value)
            }, statement: statements.insert)
        for (child, insert) in zip(schema.children, statements.insertChildren) {
            var rows: [[SQLValue]] = []
            for (record, _) in batch.inserted + batch.rewritten {
                for (position, row) in (record.children[child.name] ?? []).enumerated() {
                    rows.append([.text(feed), .text(record.key), .integer(Int64(position))] + row.map(Self.value))
                }
            }
            try self.insert(rows, statement: insert)
        }
    }

    /// Inserts `rows` by `statement` (the number of rows it inserts), as many per statement as
    /// the parameters allow.
    private func insert(_ rows: [[SQLValue]], statement: (Int) -> String) throws {
        guard let width = rows.first?.count else { return }
        for chunk in rows.chunks(of: max(1, parameterLimit / width)) {
            try connection.execute(statement(chunk.count), Array(chunk.joined()))
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

    /// Nothing is held: a batch's statements ran when ``write(_:hashes:)`` returned.
    package func endJob() throws {}
    package func settle() throws {}
    package func mayWait(writing count: Int) -> Bool { false }
    package func sendAll() throws {}
    package func close() {}
}

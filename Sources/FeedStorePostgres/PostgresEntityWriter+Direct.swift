import FeedKit
import FeedStore

/// The first pass of a feed: records that can only be new go straight into the entity's
/// tables with COPY, as fast as a bulk load, without the staging tables.
///
/// Like the SQLite writer, the writer checks once per pass whether the table holds any of the
/// feed's rows; while it held none, a key that a Bloom filter of the pass's keys
/// (``KeyFilter``) has certainly not seen, and that the batch delivers once, cannot be in the
/// table; the few keys the filter may have seen (a few percent of W1's, nearly every page has
/// some) are doubtful: held aside and looked up together in one statement when the held records
/// are sent, so a page costs no round trip to the server. The ones the table does not hold are
/// new too (any it holds was written by this pass). The other records (keys delivered twice)
/// go through the staging tables, which tell duplicates apart; the two sets share no key, so
/// the order between them does not matter.
///
/// New records are held until ``directBatch`` of them wait, and COPYed together: one COPY per
/// table for several pages instead of two per page (measured with `psql` on W1, 200 COPYs of
/// 100,000 rows and their 200,000 child rows took 1.33 to 1.40 s against 1.15 to 1.25 s for
/// two). They are held as COPY rows, in binary (``PostgresCopyBuffer``), encoded as their page
/// arrives: the records go with their page's job, and the COPY only ships bytes while the
/// server works, which stores binary rows without parsing their timestamps and decimals. The
/// held records are sent before any statement that reads the entity's table (the staging
/// tables' merge, the touch of unchanged rows) and when the pass ends; a key the Bloom filter
/// may have seen is looked up among them, and among the doubtful ones, before the table.
extension PostgresEntityWriter {
    typealias Part = (records: [EntityRecord], hashes: [Int64])

    /// How many new records are held before they are sent.
    static let directBatch = 5_000
    /// How many new records of the next batch are held before the COPY that
    /// ``sendDirect(_:waiting:)`` deferred is sent.
    static let deferredAfter = directBatch / 2

    /// Whether writing `count` more records may make the writer wait for the server: when they
    /// would send the held records (whose COPY starts by reading the last one's outcome), or when
    /// the table held the feed's rows already (every batch then goes through statements).
    /// Sending a deferred COPY (``sendDeferred(_:)``) may wait for the one before it too, but is
    /// not counted: the held responses would send it first, and wait for it.
    func mayWait(writing count: Int) -> Bool {
        (checkedFreshness && freshKeys == nil)
            || pendingDirect.count + doubtful.records.count + count >= Self.directBatch
    }

    /// Holds records known to be new, as their rows in COPY's format (the records themselves
    /// are not kept), counting them inserted.
    func holdDirect(_ part: Part) {
        let (feed, run, stamp, stampMicroseconds, types) = (feed, run, stamp, stampMicroseconds, sql.types)
        let children = sql.children.map { (name: $0.name, types: $0.types) }
        for (record, hash) in zip(part.records, part.hashes) {
            pendingDirect.append(key: record.key) { row in
                row.text(feed)
                row.text(record.key)
                row.integer(hash)
                row.integer(run)
                row.timestamp(stamp, microseconds: stampMicroseconds)
                row.timestamp(stamp, microseconds: stampMicroseconds)
                row.values(record.values, as: types)
            }
            for (index, child) in children.enumerated() {
                for (position, values) in (record.children[child.name] ?? []).enumerated() {
                    pendingChildren[index].append(key: record.key) { row in
                        row.text(feed)
                        row.text(record.key)
                        row.integer(Int64(position))
                        row.values(values, as: child.types)
                    }
                }
            }
            pendingKeys.insert(record.key)
        }
        tally.counts.inserted += part.records.count
    }

    /// Holds records whose keys the Bloom filter may have seen, to be looked up when the held
    /// records are sent (``sendDirect(_:)``).
    func holdDoubtful(_ part: Part) {
        doubtful.records += part.records
        doubtful.hashes += part.hashes
        for record in part.records { doubtfulKeys.insert(record.key) }
    }

    /// COPYs the held records, if any, into the entity's table, and their child rows into the
    /// child tables: first the doubtful ones are looked up in one statement, those the table
    /// does not hold held with the others, and those it holds (written earlier in the pass)
    /// staged after the COPY.
    ///
    /// - Parameter waiting: `false` when the held records are sent because enough wait: the
    ///   writer then waits for none of the batch's COPYs but the ones before the last two (a
    ///   connection runs one COPY at a time). The last but one (W1's child rows) is sent
    ///   without waiting, and the last (the entity's rows) deferred: sent, without waiting
    ///   either, once the server has stored the one before and half the next batch is held
    ///   (``sendDeferred(_:)``), or before the writer's next statement (``settle(_:)``). The
    ///   writer thus encodes the next pages while the server stores both. (It used to wait for
    ///   the child rows, 0.26 s of a 0.98 s pass of W1 at 100,000 rows, the server idle between
    ///   a batch's entity rows and the next batch.)
    func sendDirect(_ connection: PostgresConnection, waiting: Bool = true) throws(PostgresEntityError) {
        try settle(connection)
        let stored = try resolveDoubtful(connection)
        if !pendingDirect.isEmpty {
            var copies: [(statement: String, table: String, rows: PostgresCopyBuffer)] = []
            for (child, rows) in zip(sql.children, pendingChildren) where !rows.isEmpty {
                copies.append((child.copyDirect, child.table, rows))
            }
            copies.append((sql.copyDirect, sql.table, pendingDirect))
            let waitsForAll = waiting || !stored.records.isEmpty
            let deferred = !waitsForAll && copies.count >= 2 ? copies.removeLast() : nil
            for (index, next) in copies.enumerated() {
                try copy(
                    next.statement, into: next.table, next.rows,
                    waiting: waitsForAll || index < copies.count - 1, connection)
            }
            // Set once the others are sent: each COPY first settles the writer's last one.
            deferredCopy = deferred
            pendingDirect.removeAll()
            for index in pendingChildren.indices { pendingChildren[index].removeAll() }
            pendingKeys.removeAll(keepingCapacity: true)
        }
        if !stored.records.isEmpty { try writeThroughTable(stored, connection) }
    }

    /// Looks the doubtful records' keys up in the table, holds the records it does not hold
    /// with the new ones, and returns the others.
    private func resolveDoubtful(_ connection: PostgresConnection) throws(PostgresEntityError) -> Part {
        guard !doubtful.records.isEmpty else { return ([], []) }
        let held = doubtful
        doubtful = ([], [])
        doubtfulKeys.removeAll(keepingCapacity: true)
        let rows = try execute(
            sql.storedKeys, [feed, PostgresSQL.arrayLiteral(held.records.map(\.key))], on: sql.table,
            "cannot look the keys up", connection)
        let written = Set((0..<rows.count).compactMap { rows[$0, 0] })
        var new: Part = ([], [])
        var stored: Part = ([], [])
        for (record, hash) in zip(held.records, held.hashes) {
            if written.contains(record.key) {
                stored.records.append(record)
                stored.hashes.append(hash)
            } else {
                new.records.append(record)
                new.hashes.append(hash)
            }
        }
        holdDirect(new)
        return stored
    }

    /// Splits a batch into the records that can only be new, the ones whose keys the Bloom
    /// filter may have seen and that are neither held nor doubtful already (to be looked up),
    /// and the others, keeping order.
    func split(_ records: [EntityRecord], hashes: [Int64], _ connection: PostgresConnection)
        throws(PostgresEntityError) -> (direct: Part, doubtful: Part, rest: Part)
    {
        if !checkedFreshness {
            checkedFreshness = true
            let rows = try execute(
                sql.feedHasRows, [feed], on: sql.table, "cannot look for the feed's rows", connection)
            if rows[0, 0] == "f" { freshKeys = KeyFilter() }
        }
        guard freshKeys != nil else { return (([], []), ([], []), (records, hashes)) }
        var seen: [String: Int] = [:]
        seen.reserveCapacity(records.count)
        for record in records { seen[record.key, default: 0] += 1 }
        var direct: Part = ([], [])
        var doubted: Part = ([], [])
        var rest: Part = ([], [])
        for (record, hash) in zip(records, hashes) {
            let key = record.key
            if seen[key] != 1 {
                rest.records.append(record)
                rest.hashes.append(hash)
            } else if !(freshKeys?.mightContain(KeyFilter.hash(key: key, salt: 0)) ?? true) {
                direct.records.append(record)
                direct.hashes.append(hash)
            } else if pendingKeys.contains(key) || doubtfulKeys.contains(key) {
                // Written (or to be) by this pass: delivered again.
                rest.records.append(record)
                rest.hashes.append(hash)
            } else {
                doubted.records.append(record)
                doubted.hashes.append(hash)
            }
        }
        for record in records { freshKeys?.insert(KeyFilter.hash(key: record.key, salt: 0)) }
        return (direct, doubted, rest)
    }
}

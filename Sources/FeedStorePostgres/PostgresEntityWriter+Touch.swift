import FeedKit
import FeedStore

/// Later passes: a record delivered unchanged only moves its row's `_last_seen`, without going
/// through the staging tables.
///
/// In a `merge` or `replace` pass over a table that holds the feed's rows, each batch first
/// sends the keys and hashes of the records it delivers once, in two arrays, to one statement
/// (``PostgresWriterSQL/touchUnchanged``) that touches the rows holding that key with that hash
/// and not yet delivered by this pass, and returns their keys: those records are counted
/// unchanged, as the SQLite writer counts them. The rest (new, changed, delivered twice in the
/// batch, or delivered earlier in this pass) go through the staging tables as before; the two
/// sets share no key, so the order between them does not matter. An unchanged pass thus sends
/// no row's values, and the server touches each row once, in place.
extension PostgresEntityWriter {
    /// Touches the rows of the records of `part` that the table holds unchanged and this pass
    /// has not delivered yet, counting them unchanged.
    ///
    /// - Returns: the other records of `part`, in order, for the staging tables.
    func touchUnchanged(_ part: Part, _ connection: PostgresConnection) throws(PostgresEntityError) -> Part {
        guard mode != .append, freshKeys == nil, !part.records.isEmpty else { return part }
        var deliveries: [String: Int] = [:]
        deliveries.reserveCapacity(part.records.count)
        for record in part.records { deliveries[record.key, default: 0] += 1 }
        var keys: [String] = []
        var hashes: [String] = []
        for (record, hash) in zip(part.records, part.hashes) where deliveries[record.key] == 1 {
            keys.append(record.key)
            hashes.append(String(hash))
        }
        guard !keys.isEmpty else { return part }
        let rows = try execute(
            sql.touchUnchanged,
            [feed, stamp, PostgresSQL.arrayLiteral(keys), "{" + hashes.joined(separator: ",") + "}"],
            on: sql.table, "cannot touch the unchanged rows", connection)
        guard rows.count > 0 else { return part }
        let touched = Set((0..<rows.count).compactMap { rows[$0, 0] })
        tally.counts.unchanged += touched.count
        var rest: Part = ([], [])
        for (record, hash) in zip(part.records, part.hashes) where !touched.contains(record.key) {
            rest.records.append(record)
            rest.hashes.append(hash)
        }
        return rest
    }
}

import FeedKit

/// Writes one feed's records of one entity inside its pass's transaction, counting what
/// changed: the part of a pass where the databases truly differ (SQLite inserts many rows per
/// prepared statement; PostgreSQL streams them with `COPY` while the pass goes on), made by the
/// driver for each entity a pass writes (``PassDatabase``) and driven by ``PassWriter``.
///
/// A writer holds the pass's connection and lives on its thread only.
package protocol EntityWriting: AnyObject {
    var schema: EntitySchema { get }
    var mode: WriteMode { get }
    /// What the writer did so far, counted as it writes; ``PassWriter`` counts the rows it
    /// deletes (``EntityDeletion``) and those an adapter knows to be unchanged.
    var tally: EntityWriteTally { get set }
    /// Writes `records` of the entity, whose content hashes (``ContentHash``) are `hashes`.
    func write(_ records: ArraySlice<EntityRecord>, hashes: ArraySlice<Int64>) throws
    /// Ends a job's writes: records the writer held back to write many at once go in (nothing
    /// else waits for them).
    func endJob() throws
    /// Reads the outcome of a write the database may still be storing, before another
    /// statement uses the connection, so that a refused value is reported with its entity.
    func settle() throws
    /// Whether writing `count` more records would wait for the database (``PassWriter`` sends
    /// what it holds first, while it waits anyway).
    func mayWait(writing count: Int) -> Bool
    /// Sends every record the writer holds and reads their outcome, so that a statement of the
    /// pass's own about the entity's rows (``EntityDeletion``) finds them.
    func sendAll() throws
    /// Releases what the writer holds on to, on the connection's thread, as the transaction ends.
    func close()
}

extension Sequence<any EntityWriting> {
    /// The pass's counts (the writers' summed, with `rejected`) and its notes on duplicates.
    package func totals(rejected: Int) -> (counts: WriteCounts, notes: [String]) {
        var total = WriteCounts()
        var notes: [String] = []
        for writer in self {
            total = total + writer.tally.counts
            if let note = writer.tally.duplicateNote(entity: writer.schema.name) { notes.append(note) }
        }
        total.rejected = rejected
        return (total, notes)
    }
}

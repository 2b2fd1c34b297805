import FeedKit
import Foundation

/// What the jobs of a feed's pass do inside its transaction, on the store's writer thread: one
/// implementation per driver (in `FeedStoreSQLite` and `FeedStorePostgres`), driven by ``FeedTransaction``.
package protocol PassWriting: AnyObject {
    /// The pass's first reject, for the message of a pass that rejects too many.
    var firstReject: Reject? { get }
    /// Writes `records`, whose content hashes (``ContentHash``) were computed off this thread.
    func write(_ records: [EntityRecord], hashes: [Int64]) throws
    /// Counts records of `entity` as unchanged without writing them.
    func countUnchanged(_ count: Int, entity: String) throws
    /// Deletes the feed's rows of `entity` with these keys (and their child rows), leaving a
    /// tombstone in `_tombstones` for each and counting them as deleted.
    func delete(_ keys: [String], entity: String) throws
    func reject(_ rejects: [Reject]) throws
    /// Stores a response in the cache.
    func storeCache(_ write: CacheWrite) throws
    func setState(_ key: String, _ value: String?) throws
    func enqueueOutbox(_ urls: [String]) throws
    /// Starts writing an entity declared during the pass (``FeedPass/declare(_:)``).
    func declare(_ binding: EntityBinding) throws
    /// Records the pass's outcome in its run row, committed with the pass.
    func recordRun(_ outcome: RunOutcome) throws
    /// Finishes the entities' writes (`replace` deletions), and gives the counts and the notes
    /// on keys delivered twice.
    func finishWrites() throws -> (counts: WriteCounts, notes: [String])
    /// What the `replace` entities' deletions did, once ``finishWrites()`` made them, for
    /// ``DeleteLimit``.
    var replaceTallies: [ReplaceTally] { get }
    /// Releases what the writers hold; called once, as the transaction ends.
    func close()
    /// Shows the server that the session of a transaction waiting for its next job is alive
    /// (``FeedTransaction``'s `keepAlive`); nothing by default.
    func keepAlive() throws
}

extension PassWriting {
    package func keepAlive() throws {}
}

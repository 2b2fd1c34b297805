import FeedKit

/// What an entity writer (one per driver, in `FeedStoreSQLite` and `FeedStorePostgres`)
/// knows at the end of a pass: its counts and the first keys delivered twice.
package protocol EntityWriteTally: AnyObject {
    var schema: EntitySchema { get }
    var counts: WriteCounts { get }
    /// The first few distinct keys delivered twice in this pass (at most three).
    var duplicateExamples: [String] { get }
}

extension EntityWriteTally {
    /// The report's line about keys delivered twice in this pass, if any were.
    package var duplicateNote: String? {
        guard counts.duplicates > 0 else { return nil }
        let examples = duplicateExamples.map { "'\($0)'" }.joined(separator: ", ")
        let more = duplicateExamples.count == 3 ? ", ..." : ""
        return
            "\(counts.duplicates) duplicate \(schema.name) key(s) in this pass (\(examples)\(more)); the last one wins"
    }
}

extension Sequence where Element: EntityWriteTally {
    /// The pass's counts (the writers' summed, with `rejected`) and its notes on duplicates.
    package func totals(rejected: Int) -> (counts: WriteCounts, notes: [String]) {
        var total = WriteCounts()
        var notes: [String] = []
        for writer in self {
            total = total + writer.counts
            if let note = writer.duplicateNote { notes.append(note) }
        }
        total.rejected = rejected
        return (total, notes)
    }
}

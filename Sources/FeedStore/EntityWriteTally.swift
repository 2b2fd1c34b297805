import FeedKit

/// What an entity's writer (``EntityWriting``) did in its pass, kept the same way by every
/// driver: its counts, the rows a `replace` pass deleted because it did not deliver them, and
/// the first keys delivered twice.
package struct EntityWriteTally: Sendable {
    /// The entity's counts so far; ``WriteCounts/rejected`` is the pass's.
    package var counts = WriteCounts()
    /// The rows a `replace` pass deleted because it did not deliver them.
    package private(set) var undelivered = 0
    /// The first few distinct keys delivered twice in this pass (at most three).
    package private(set) var duplicateExamples: [String] = []

    package init() {}

    /// Counts `count` keys delivered twice in this pass, among them `keys`.
    package mutating func countDuplicates(_ count: Int = 1, keys: some Sequence<String>) {
        counts.duplicates += count
        for key in keys where duplicateExamples.count < 3 && !duplicateExamples.contains(key) {
            duplicateExamples.append(key)
        }
    }

    /// Counts rows of the entity deleted (``EntityDeletion``); `undelivered` when a `replace`
    /// pass deleted them because it did not deliver them.
    package mutating func countDeleted(_ count: Int, undelivered: Bool) {
        counts.deleted += count
        if undelivered { self.undelivered += count }
    }

    /// The report's line about keys of `entity` delivered twice in this pass, if any were.
    package func duplicateNote(entity: String) -> String? {
        guard counts.duplicates > 0 else { return nil }
        let examples = duplicateExamples.map { "'\($0)'" }.joined(separator: ", ")
        let more = duplicateExamples.count == 3 ? ", ..." : ""
        return "\(counts.duplicates) duplicate \(entity) key(s) in this pass (\(examples)\(more)); the last one wins"
    }

    /// The ``ReplaceTally`` of `entity`: the rows held before are those the pass updated, left
    /// unchanged or deleted.
    package func replaceTally(entity: String) -> ReplaceTally {
        ReplaceTally(
            entity: entity, held: counts.updated + counts.unchanged + counts.deleted,
            delivered: counts.inserted + counts.updated + counts.unchanged, undelivered: undelivered)
    }
}

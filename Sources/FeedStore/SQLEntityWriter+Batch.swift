import FeedKit

extension SQLEntityWriter {
    /// What one batch writes, once each record was judged: a key's last record wins, so a key
    /// is inserted or rewritten once at most (a key delivered unchanged, then changed, is
    /// touched and rewritten).
    struct Batch {
        /// New keys' records, in the order they came.
        private(set) var inserted: [(record: EntityRecord, hash: Int64)] = []
        /// Stored rows to rewrite with these records.
        private(set) var rewritten: [(record: EntityRecord, hash: Int64)] = []
        /// Keys whose rows this pass delivered unchanged.
        var touched: [String] = []
        /// Keys rewritten in this batch, whose child rows are deleted before any is inserted:
        /// the stored row's, or those of the record this batch inserts first (and, in `append`,
        /// those of the key's other versions too, as every writer deletes a rewritten key's).
        private(set) var childrenReplaced: [String] = []
        private var insertedIndex: [String: Int] = [:]
        private var rewrittenIndex: [String: Int] = [:]
        private var childrenReplacedKeys: Set<String> = []

        mutating func insert(_ record: EntityRecord, hash: Int64) {
            insertedIndex[record.key] = inserted.count
            inserted.append((record, hash))
        }

        /// Rewrites the key's row with `record`: the one this batch inserts, or a stored one.
        mutating func rewrite(_ record: EntityRecord, hash: Int64) {
            if childrenReplacedKeys.insert(record.key).inserted { childrenReplaced.append(record.key) }
            if let index = insertedIndex[record.key] {
                inserted[index] = (record, hash)
            } else if let index = rewrittenIndex[record.key] {
                rewritten[index] = (record, hash)
            } else {
                rewrittenIndex[record.key] = rewritten.count
                rewritten.append((record, hash))
            }
        }
    }
}

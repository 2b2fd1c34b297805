/// How a feed's records replace what the store holds, per entity (`write:` in feeds.yaml).
public enum WriteMode: String, Sendable, Hashable, Codable, CaseIterable {
    /// Insert new keys, update changed ones, never delete. The default.
    case merge
    /// A complete pass replaces the feed's rows: keys the pass did not deliver are deleted.
    /// A failed pass changes nothing.
    case replace
    /// History: a record whose key and content are new is inserted as a new row; rows are never
    /// updated or deleted.
    case append
}

/// What one pass did to one feed's rows.
public struct WriteCounts: Sendable, Hashable, Codable {
    public var inserted = 0
    public var updated = 0
    public var unchanged = 0
    public var deleted = 0
    public var rejected = 0
    /// Records whose key was already delivered earlier in the same pass (the last one wins).
    public var duplicates = 0

    public init() {}

    public static func + (lhs: WriteCounts, rhs: WriteCounts) -> WriteCounts {
        var sum = lhs
        sum.inserted += rhs.inserted
        sum.updated += rhs.updated
        sum.unchanged += rhs.unchanged
        sum.deleted += rhs.deleted
        sum.rejected += rhs.rejected
        sum.duplicates += rhs.duplicates
        return sum
    }
}

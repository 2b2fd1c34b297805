import FeedKit

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

extension WriteCounts: CustomStringConvertible {
    /// `3 new, 1 updated, 5 unchanged, 0 deleted, 0 rejected`, as the run table's columns.
    public var description: String {
        "\(inserted) new, \(updated) updated, \(unchanged) unchanged, \(deleted) deleted, \(rejected) rejected"
    }
}

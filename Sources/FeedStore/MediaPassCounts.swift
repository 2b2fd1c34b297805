/// What one pass's mirroring of media did (``MediaMirror``).
public struct MediaPassCounts: Sendable, Codable, Hashable {
    /// The image URLs the feed's rows name in media columns.
    public var referenced = 0
    /// Fetched and stored (a new image, or new bytes at a known URL).
    public var fetched = 0
    /// Confirmed unchanged by a conditional request (304).
    public var unchanged = 0
    /// Fetches that failed or were refused this pass; each is retried on a later pass.
    public var failed = 0
    /// Left alone this pass: mirrored recently, or waiting for their retry time.
    public var skipped = 0

    public init() {}

    /// The counts of two passes together.
    public static func + (lhs: MediaPassCounts, rhs: MediaPassCounts) -> MediaPassCounts {
        var sum = lhs
        sum.referenced += rhs.referenced
        sum.fetched += rhs.fetched
        sum.unchanged += rhs.unchanged
        sum.failed += rhs.failed
        sum.skipped += rhs.skipped
        return sum
    }
}

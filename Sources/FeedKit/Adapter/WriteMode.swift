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

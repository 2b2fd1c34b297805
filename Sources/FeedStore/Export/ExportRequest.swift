import FeedKit

/// What one `feedwork export ENTITY` asks for, before it is checked against the store's schemas.
public struct ExportRequest: Sendable, Hashable {
    /// The entity (or child table, `<entity>__<list>`) to export.
    public var entity: String
    /// Only rows of these feeds (`_feed`); all feeds when empty.
    public var feeds: [String] = []
    /// Conditions that must all hold.
    public var filters: [ExportFilter] = []
    /// The order of the rows; the entity's declared order when empty.
    public var order: [OrderTerm] = []
    /// At most this many rows.
    public var limit: Int?
    /// The columns to write, in this order; the schema's columns when empty.
    public var columns: [String] = []
    /// Whether to write the `_` columns before the schema's (ignored when `columns` is given).
    public var includeMeta = false
    /// Only rows inserted or changed after this.
    public var changedSince: ChangedSince?
    /// Whether to write, after the rows, the rows deleted since ``changedSince`` (which it
    /// needs); see ``DeletedRows``.
    public var includeDeleted = false
    /// A keyset page instead of the export's order: the query sorts as ``Keyset`` says, keeps
    /// the rows after its cursor, and selects the columns the next cursor is made of (with an
    /// entity table's tie-breaker as `_row`, last).
    public var keyset: Keyset?
    /// Only rows whose full-text index (the entity's `search:`) holds these words, best
    /// matches first unless an order (or a keyset's sort) is given; see ``SearchQuery``.
    public var search: SearchQuery?
    /// What is written beside each media column (``FeedKit/Column/media``) of an entity when
    /// no `columns` are named: the mirrored image's hash (the default), its path in an
    /// `export --media` folder too, or nothing. Keyset pages (serve's pages) never add them.
    public var media: MediaColumns = .hashes

    /// The columns an export adds beside a media column.
    public enum MediaColumns: Sendable, Hashable {
        case none
        /// `<column>_media`, the hash.
        case hashes
        /// `<column>_media` and `<column>_path`, `media/<hash>.<ext>`.
        case paths
    }

    public init(entity: String) { self.entity = entity }
}

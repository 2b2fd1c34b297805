import FeedKit

/// One column of an export: its name and the type that decides how its values are written.
public struct ExportField: Sendable, Hashable, Codable {
    public var name: String
    public var type: ColumnType
    /// Whether the column is one of the store's `_` columns rather than the schema's.
    public var isMeta: Bool
    /// For money in minor units: the ISO 4217 currency (``FeedKit/Column/currency``).
    public var currency: String?
    /// For a column an export adds beside a media column (``FeedKit/Column/media``): what it
    /// holds of that column's mirrored image; `nil` for a stored column.
    public var media: MediaField?

    /// What an export writes beside a media column.
    public enum MediaField: Sendable, Hashable, Codable {
        /// `<column>_media`: the SHA-256 of the mirrored image, null when it is not mirrored.
        case hash(of: String)
        /// `<column>_path`: the image's file in the export's folder, `media/<hash>.<ext>`.
        case path(of: String)
    }

    public init(
        name: String, type: ColumnType, isMeta: Bool = false, currency: String? = nil, media: MediaField? = nil
    ) {
        self.name = name
        self.type = type
        self.isMeta = isMeta
        self.currency = currency
        self.media = media
    }

    /// How the column's values appear in NDJSON and JSON, for the manifest and the docs.
    public var jsonRepresentation: String {
        switch type {
        case .integer: "integer"
        case .real: "number (null for NaN and infinities)"
        case .text: "string"
        case .boolean: "boolean"
        case .decimal: "string (exact decimal)"
        case .timestamp: "string (ISO 8601 UTC)"
        case .date: "string (date, YYYY-MM-DD)"
        case .json: "embedded JSON"
        }
    }
}

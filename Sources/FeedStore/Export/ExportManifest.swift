import FeedKit

/// `manifest.json` of `feedwork export --all`: what each file holds and the run the store had
/// reached, to pass to `--changed-since` next time.
public struct ExportManifest: Sendable, Hashable, Codable {
    /// One exported table.
    public struct Entry: Sendable, Hashable, Codable {
        public var entity: String
        /// For a child table, the entity whose rows own it.
        public var parent: String?
        /// The file's name within the output folder.
        public var file: String
        public var rows: Int
        /// With `--include-deleted`: the deleted rows (tombstones) written after the rows.
        public var deleted: Int?
        public var columns: [ManifestColumn]

        package init(
            entity: String, parent: String? = nil, file: String, rows: Int, deleted: Int? = nil,
            columns: [ManifestColumn]
        ) {
            self.entity = entity
            self.parent = parent
            self.file = file
            self.rows = rows
            self.deleted = deleted
            self.columns = columns
        }
    }

    /// One column of a file, with how its values are written.
    public struct ManifestColumn: Sendable, Hashable, Codable {
        public var name: String
        public var type: ColumnType
        /// How NDJSON and JSON write the column's values, e.g. `string (exact decimal)`.
        public var json: String
        /// For money in minor units: the ISO 4217 currency (``FeedKit/Column/currency``).
        public var currency: String?

        package init(_ field: ExportField) {
            name = field.name
            type = field.type
            json = field.jsonRepresentation
            currency = field.currency
        }
    }

    public var format: ExportFormat
    /// Every row changed by a run up to this id is in the export; `--changed-since` with it
    /// selects what later runs change.
    public var run: Int64
    /// The `--changed-since` bound of this export, as given.
    public var changedSince: String?
    /// When the export was taken (ISO 8601 UTC).
    public var exportedAt: String
    public var entities: [Entry]
    /// With `export --media`: the mirrored images copied into `media/` beside the files.
    public var media: Int?

    package enum CodingKeys: String, CodingKey {
        case format, run, entities, media
        case changedSince = "changed_since"
        case exportedAt = "exported_at"
    }

    package init(format: ExportFormat, run: Int64, changedSince: String? = nil, exportedAt: String, entities: [Entry]) {
        self.format = format
        self.run = run
        self.changedSince = changedSince
        self.exportedAt = exportedAt
        self.entities = entities
    }
}

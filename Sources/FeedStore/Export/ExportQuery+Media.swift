import FeedKit

/// The columns an export adds beside an entity's media columns (``FeedKit/Column/media``):
/// `<column>_media`, the SHA-256 of the mirrored image, and with `export --media`
/// `<column>_path`, its file in the export's folder. Both are null for an image not mirrored.
/// A child list's table (`<entity>__<list>`) gets them after its own media columns.
extension ExportQuery {
    /// `fields` with the media fields `request` asks for after each media column.
    static func withMediaFields(_ fields: [ExportField], request: ExportRequest, schemas: [String: EntitySchema])
        -> [ExportField]
    {
        guard request.media != .none, request.columns.isEmpty,
            let table = schemas.values.flatMap(\.mediaTables).first(where: { $0.name == request.entity })
        else { return fields }
        let mediaColumns = Set(table.columns)
        let names = Set(fields.map(\.name))
        var result: [ExportField] = []
        for field in fields {
            result.append(field)
            guard !field.isMeta, mediaColumns.contains(field.name) else { continue }
            var added = [ExportField(name: field.name + "_media", type: .text, media: .hash(of: field.name))]
            if request.media == .paths {
                added.append(ExportField(name: field.name + "_path", type: .text, media: .path(of: field.name)))
            }
            result += added.filter { !names.contains($0.name) }
        }
        return result
    }

    /// The SQL of a media field, the same on both stores: the hash (or path) of the image the
    /// row's feed mirrored from the URL in the column.
    static func mediaSelect(_ media: ExportField.MediaField) -> String {
        let (column, value, name) =
            switch media {
            case .hash(let column): (column, "m.hash", column + "_media")
            case .path(let column):
                (column, "'media/' || m.hash || '.' || replace(substr(m.type, 7), 'jpeg', 'jpg')", column + "_path")
            }
        return """
            (SELECT \(value) FROM _media_urls u JOIN _media m ON m.hash = u.hash \
            WHERE u.feed = t._feed AND u.url = t.\(SQLIdentifier.quoted(column))) AS \(SQLIdentifier.quoted(name))
            """
    }
}

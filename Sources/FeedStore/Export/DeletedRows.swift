import FeedKit

/// The tombstones of an export with `--include-deleted`: the rows of the table's entity that
/// `replace` passes deleted in the `--changed-since` window, written after the changed rows.
///
/// Each tombstone holds the deleted row's key fields (for a child table, whose rows are keyed
/// by their parent, none), then `_feed`, `_key` and `_run` (the run that deleted it). A key
/// deleted and delivered again later is not reported: the row is back, and its re-insertion is
/// among the changed rows. A key deleted twice in the window is reported once.
///
/// Tombstones are not filtered by `--where` (the deleted row's other values are gone) or cut
/// by `--limit`; `--feed` applies.
///
/// `_tombstones.key_values` is a JSON array: text read with `json_extract` on SQLite, `jsonb`
/// read with `->>` on PostgreSQL (see ``SQLDialect/keyValue(at:of:)``), so both stores give
/// the same tombstones.
public struct DeletedRows: Sendable {
    /// The fields of each tombstone, in order: the key fields, `_feed`, `_key`, `_run`.
    public var fields: [ExportField]
    public var sql: String
    public var arguments: [FieldValue]

    /// The error of `--include-deleted` without `--changed-since` (a usage error).
    public static let needsChangedSince = ExportError(
        .usage, "--include-deleted needs --changed-since: deletions are reported since a run or a time")

    /// The tombstones query of `table`, whose rows are exported as `fields`.
    ///
    /// - Throws: a usage ``ExportError`` when `fields` lack what identifies a deleted row: the
    ///   key fields, or `_key` for a child table.
    package static func build(
        for table: ExportTable, fields selected: [ExportField], feeds: [String], since bound: ChangedSince,
        dialect: any SQLDialect
    )
        throws(ExportError) -> DeletedRows
    {
        let identity = table.parent == nil ? table.key : ["_key"]
        let missing = identity.filter { name in !selected.contains { $0.name == name } }
        if !missing.isEmpty {
            throw .usage(
                "--include-deleted needs \(missing.joined(separator: ", ")) in --columns, to say which rows were deleted"
            )
        }
        let keyFields = table.key.compactMap(table.field)
        let fields =
            keyFields + [
                ExportField(name: "_feed", type: .text, isMeta: true),
                ExportField(name: "_key", type: .text, isMeta: true),
                ExportField(name: "_run", type: .integer, isMeta: true),
            ]
        let entity = table.parent ?? table.name
        let values = keyFields.enumerated().map { index, field in dialect.keyValue(at: index, of: field) }
        var conditions = ["d.entity = ?"]
        var arguments: [FieldValue] = [.text(entity)]
        if !feeds.isEmpty {
            conditions.append("d.feed IN (\(feeds.map { _ in "?" }.joined(separator: ", ")))")
            arguments += feeds.map { .text($0) }
        }
        let (window, argument) = bound.condition(on: "d.run")
        conditions.append(window)
        arguments.append(argument)
        // The key's last deletion only, and only while the row is still gone.
        conditions.append(
            "d.id = (SELECT MAX(e.id) FROM _tombstones AS e WHERE e.entity = d.entity AND e.feed = d.feed AND e.key = d.key)"
        )
        conditions.append(
            "NOT EXISTS (SELECT 1 FROM \(SQLIdentifier.quoted(entity)) AS t WHERE t._feed = d.feed AND t._key = d.key)")
        let sql =
            "SELECT \((values + ["d.feed", "d.key", "d.run"]).joined(separator: ", ")) FROM _tombstones AS d WHERE "
            + conditions.joined(separator: " AND ") + " ORDER BY d.id"
        return DeletedRows(fields: fields, sql: dialect.numbered(sql), arguments: arguments)
    }
}

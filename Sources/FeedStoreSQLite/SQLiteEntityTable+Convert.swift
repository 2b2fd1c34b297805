import FeedKit
import FeedStore
import GRDB

/// Changing the type of an entity table's column in place (``ColumnConversion``).
extension SQLiteEntityTable {
    /// Gives `column` of `table` (an entity's table, or a `child` table) the storage type of
    /// `type`, each value becoming `expression`: a rebuild of the table, its key, foreign keys,
    /// rowids and lookup index kept (a child table's key, or rowids and parent index). Nothing
    /// changes when the storage type stays (text to decimal, boolean to integer): SQLite holds
    /// the values as the new type has them already.
    ///
    /// - Throws: ``StoreError`` when another table's foreign key points at `table`.
    static func convert(
        _ column: String, of table: String, child: Bool = false, to type: ColumnType, expression: String,
        in db: Database, path: String
    ) throws {
        let storage = try Row.fetchAll(db, sql: "PRAGMA table_info(\(quoted(table)))")
            .first { ($0["name"] as String) == column }.map { ($0["type"] as String).uppercased() }
        guard let storage, storage != type.sqlType else { return }
        let converting = [column: (type: type.sqlType, expression: expression)]
        if child {
            let keyed = try isChildKeyed(table, in: db)
            try rebuild(
                table, constraints: keyed ? [childPrimaryKey] : [], withoutRowid: keyed, copyingRowids: !keyed,
                converting: converting, in: db, path: path)
            try setParentIndex(on: table, keyed: keyed, in: db)
            return
        }
        let keyed = try isKeyed(table, in: db)
        try rebuild(
            table, constraints: (keyed ? [primaryKey] : []) + (try foreignKeys(of: table, in: db)).map(clause),
            withoutRowid: false, copyingRowids: true, converting: converting, in: db, path: path)
        try setLookupIndex(on: table, keyed: keyed, in: db)
    }
}

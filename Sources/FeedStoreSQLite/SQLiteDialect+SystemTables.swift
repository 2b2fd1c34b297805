import FeedStore

/// How the SQLite store declares its system tables (``SystemTables``): times are ISO 8601 UTC
/// text, JSON is text, booleans are `0`/`1`.
extension SQLiteDialect {
    func systemType(_ kind: SystemColumn.Kind) -> String {
        switch kind {
        case .serial, .integer, .boolean: "INTEGER"
        case .text, .time, .json: "TEXT"
        case .bytes: "BLOB"
        }
    }

    var serialPrimaryKey: String { "INTEGER PRIMARY KEY AUTOINCREMENT" }
}

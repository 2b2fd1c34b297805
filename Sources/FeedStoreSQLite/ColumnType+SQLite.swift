import FeedKit
import FeedStore

extension ColumnType {
    /// The SQLite storage type of the column.
    var sqlType: String {
        switch self {
        case .integer, .boolean: "INTEGER"
        case .real: "REAL"
        case .text, .decimal, .timestamp, .date, .json: "TEXT"
        }
    }
}

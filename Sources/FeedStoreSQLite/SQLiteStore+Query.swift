import FeedKit
import FeedStore
import GRDB

extension SQLiteStore {
    /// Runs a read-only SQL query and returns each row as column name to value.
    public func query(_ sql: String, arguments: [FieldValue] = []) async throws -> [[String: FieldValue]] {
        try await read { db in
            let values = arguments.map { value -> (any DatabaseValueConvertible)? in
                switch value {
                case .null: nil
                case .integer(let number): number
                case .real(let number): number
                case .text(let text): text
                case .bool(let flag): flag
                }
            }
            return try Row.fetchAll(db, sql: sql, arguments: StatementArguments(values)).map { row in
                var result: [String: FieldValue] = [:]
                for (name, value) in row {
                    result[name] =
                        switch value.storage {
                        case .null: .null
                        case .int64(let number): .integer(number)
                        case .double(let number): .real(number)
                        case .string(let text): .text(text)
                        case .blob(let data): .text(String(decoding: data, as: UTF8.self))
                        }
                }
                return result
            }
        }
    }
}

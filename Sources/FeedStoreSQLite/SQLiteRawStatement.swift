import FeedKit
import FeedStore
import Foundation
import GRDB
import GRDBSQLite

/// Binds ``FieldValue``s straight into a prepared statement and steps it, without building
/// GRDB argument arrays: the write path of every record goes through here.
struct SQLiteRawStatement {
    let statement: Statement
    private var handle: OpaquePointer { statement.sqliteStatement }

    init(_ db: Database, _ sql: String) throws { statement = try db.cachedStatement(sql: sql) }

    /// Binds `bytes` as text to parameter `index` of `statement`, `SQLITE_TRANSIENT`: SQLite
    /// copies them before returning.
    static func bindCopying(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int32, of statement: OpaquePointer) {
        sqlite3_bind_text(
            statement, index, UnsafeRawPointer(bytes.baseAddress)?.assumingMemoryBound(to: CChar.self),
            Int32(bytes.count), unsafeBitCast(-1, to: sqlite3_destructor_type.self))
    }

    /// Binds `value`. A text goes through `texts` when given (valid until `texts` is reset),
    /// otherwise SQLite keeps a copy of its own.
    func bind(_ value: FieldValue, at index: Int32, texts: SQLiteTextBindings? = nil) {
        switch value {
        case .null: sqlite3_bind_null(handle, index)
        case .integer(let number): sqlite3_bind_int64(handle, index, number)
        case .real(let number): sqlite3_bind_double(handle, index, number)
        case .bool(let flag): sqlite3_bind_int64(handle, index, flag ? 1 : 0)
        case .text(let text): bind(text, at: index, texts: texts)
        }
    }

    func bind(_ value: Int64, at index: Int32) { sqlite3_bind_int64(handle, index, value) }

    func bind(_ text: String, at index: Int32, texts: SQLiteTextBindings? = nil) {
        if let texts { return texts.bind(text, at: index, of: handle) }
        var text = text
        text.withUTF8 { Self.bindCopying($0, at: index, of: handle) }
    }

    /// Drops every binding, so the statement keeps no pointer into a ``SQLiteTextBindings`` buffer.
    func clearBindings() { sqlite3_clear_bindings(handle) }

    /// Steps once; returns `true` when a row is available.
    @discardableResult
    func step(_ db: Database) throws -> Bool {
        let code = sqlite3_step(handle)
        switch code {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default:
            let message = String(cString: sqlite3_errmsg(db.sqliteConnection))
            sqlite3_reset(handle)
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: message)
        }
    }

    func reset() { sqlite3_reset(handle) }

    func int64(column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }

    /// Whether the text in `column` of the current row is `text`, compared without making a String.
    func text(column: Int32, equals text: String) -> Bool {
        guard let pointer = sqlite3_column_text(handle, column) else { return false }
        let count = Int(sqlite3_column_bytes(handle, column))
        var text = text
        return text.withUTF8 { bytes in
            guard bytes.count == count, let base = bytes.baseAddress else { return bytes.count == count }
            return memcmp(base, pointer, count) == 0
        }
    }

    /// The number of columns of the statement's rows.
    var columnCount: Int32 { sqlite3_column_count(handle) }

    /// The value of `column` in the current row, by its SQLite storage class (a blob as UTF-8 text).
    func value(column: Int32) -> FieldValue {
        switch sqlite3_column_type(handle, column) {
        case SQLITE_NULL: return .null
        case SQLITE_INTEGER: return .integer(sqlite3_column_int64(handle, column))
        case SQLITE_FLOAT: return .real(sqlite3_column_double(handle, column))
        default:
            // Ask for the text before its length, as SQLite documents.
            let text = sqlite3_column_text(handle, column)
            let count = Int(sqlite3_column_bytes(handle, column))
            guard let text else { return .text("") }
            return .text(String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self))
        }
    }
}

import FeedKit
import FeedStore
import Foundation
import GRDBSQLite

extension SQLiteStore {
    /// Runs the statement on a connection of its own, opened read-only with `PRAGMA
    /// query_only`, under an authorizer that lets it read and call functions only
    /// (``SQLiteReadOnlyGuard``), and a progress handler that stops it at the time limit.
    package func runReadOnly(_ statement: ReadOnlySQLStatement, values: [String], _ request: ReadOnlySQLRequest)
        throws(ReadOnlySQLError) -> ReadOnlySQLResult
    {
        try SQLiteReadOnlyConnection(path: path).run(statement, values: values, request)
    }
}

/// What the authorizer and the progress handler of one statement share: the deadline, and
/// why the authorizer refused, for the message.
final class SQLiteReadOnlyGuard {
    let deadline: ContinuousClock.Instant
    var refusal: String?

    init(deadline: ContinuousClock.Instant) { self.deadline = deadline }

    /// SQLite's authorizer: reading tables (but the hidden ones), `SELECT`, recursive `WITH` and
    /// functions (but those that load code or touch files); everything else is denied, so no
    /// write, `ATTACH`, `PRAGMA` or transaction statement even compiles.
    static let authorizer = sqliteReadOnlyAuthorizer

    /// SQLite's progress handler: non-zero stops the statement.
    static let progress = sqliteReadOnlyProgress
}

/// ``SQLiteReadOnlyGuard/authorizer``.
private let sqliteReadOnlyAuthorizer:
    @convention(c) (
        UnsafeMutableRawPointer?, Int32, UnsafePointer<CChar>?, UnsafePointer<CChar>?, UnsafePointer<CChar>?,
        UnsafePointer<CChar>?
    ) -> Int32 = { context, action, first, second, _, _ in
        guard let context else { return SQLITE_DENY }
        let guarding = Unmanaged<SQLiteReadOnlyGuard>.fromOpaque(context).takeUnretainedValue()
        let firstText = first.map { String(cString: $0) } ?? ""
        let secondText = second.map { String(cString: $0) } ?? ""
        switch action {
        case SQLITE_SELECT, SQLITE_RECURSIVE:
            return SQLITE_OK
        case SQLITE_READ:
            if let refusal = ReadOnlySQLPolicy.refusal(ofIdentifier: firstText, functions: false) {
                guarding.refusal = refusal
                return SQLITE_DENY
            }
            return SQLITE_OK
        case SQLITE_FUNCTION:
            if ReadOnlySQLPolicy.refusedSQLiteFunctions.contains(secondText.lowercased()) {
                guarding.refusal =
                    "\(secondText)(): the function is not open to SQL here (it loads code or touches files)"
                return SQLITE_DENY
            }
            return SQLITE_OK
        default:
            guarding.refusal = "the statement may only read: \(SQLiteReadOnlyGuard.actionName(action)) is refused"
            return SQLITE_DENY
        }
    }

/// ``SQLiteReadOnlyGuard/progress``.
private let sqliteReadOnlyProgress: @convention(c) (UnsafeMutableRawPointer?) -> Int32 = { context in
    guard let context else { return 1 }
    return ContinuousClock.now
        >= Unmanaged<SQLiteReadOnlyGuard>.fromOpaque(context).takeUnretainedValue()
        .deadline ? 1 : 0
}

extension SQLiteReadOnlyGuard {
    /// An authorizer action for a message.
    static func actionName(_ action: Int32) -> String {
        switch action {
        case SQLITE_INSERT: "INSERT"
        case SQLITE_UPDATE: "UPDATE"
        case SQLITE_DELETE: "DELETE"
        case SQLITE_ATTACH: "ATTACH"
        case SQLITE_DETACH: "DETACH"
        case SQLITE_PRAGMA: "PRAGMA"
        case SQLITE_TRANSACTION: "a transaction"
        case SQLITE_SAVEPOINT: "a savepoint"
        case SQLITE_ANALYZE: "ANALYZE"
        case SQLITE_REINDEX: "REINDEX"
        case SQLITE_ALTER_TABLE: "ALTER TABLE"
        default: "changing the schema"
        }
    }
}

/// One read-only connection to the store file, for one statement, closed when it goes away.
final class SQLiteReadOnlyConnection {
    private let handle: OpaquePointer
    private let path: String

    /// Opens `path` read-only (immutable when its folder cannot hold the `-shm` file WAL needs)
    /// with `PRAGMA query_only` on.
    init(path: String) throws(ReadOnlySQLError) {
        self.path = path
        var opened: OpaquePointer?
        var status = sqlite3_open_v2(path, &opened, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, nil)
        if status != SQLITE_OK {
            sqlite3_close_v2(opened)
            opened = nil
            status = sqlite3_open_v2(
                SQLiteStore.immutableURI(path), &opened, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_URI,
                nil)
        }
        guard status == SQLITE_OK, let opened else {
            let message = opened.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close_v2(opened)
            throw ReadOnlySQLError(.database, "\(path): \(message)")
        }
        handle = opened
        sqlite3_busy_timeout(handle, 5000)
        guard sqlite3_exec(handle, "PRAGMA query_only = ON", nil, nil, nil) == SQLITE_OK else {
            let message = String(cString: sqlite3_errmsg(handle))
            sqlite3_close_v2(handle)
            throw ReadOnlySQLError(.database, "\(path): \(message)")
        }
    }

    deinit {
        sqlite3_progress_handler(handle, 0, nil, nil)
        sqlite3_set_authorizer(handle, nil, nil)
        sqlite3_close_v2(handle)
    }

    /// Prepares `statement` under the authorizer, binds `values` to its parameters and steps up
    /// to one row more than the limit, while the rows fit in the byte limit; the progress
    /// handler stops the statement's own work at the deadline, and the loop stops reading there.
    func run(_ statement: ReadOnlySQLStatement, values: [String], _ request: ReadOnlySQLRequest)
        throws(ReadOnlySQLError) -> ReadOnlySQLResult
    {
        let guarding = SQLiteReadOnlyGuard(deadline: request.deadline)
        let context = Unmanaged.passUnretained(guarding).toOpaque()
        sqlite3_set_authorizer(handle, SQLiteReadOnlyGuard.authorizer, context)
        sqlite3_progress_handler(handle, 1000, SQLiteReadOnlyGuard.progress, context)
        defer {
            sqlite3_progress_handler(handle, 0, nil, nil)
            sqlite3_set_authorizer(handle, nil, nil)
            withExtendedLifetime(guarding) {}
        }
        var prepared: OpaquePointer?
        guard sqlite3_prepare_v2(handle, statement.text, -1, &prepared, nil) == SQLITE_OK, let prepared else {
            throw failure(guarding, request)
        }
        defer { sqlite3_finalize(prepared) }
        guard sqlite3_stmt_readonly(prepared) != 0 else {
            throw ReadOnlySQLError(.database, "the statement may only read")
        }
        guard Int(sqlite3_bind_parameter_count(prepared)) == values.count else {
            throw ReadOnlySQLError(.statement, "write parameters as :name (a letter, then letters, digits or _)")
        }
        for (offset, value) in values.enumerated() {
            sqlite3_bind_text(
                prepared, Int32(offset + 1), value, -1, unsafeBitCast(-1, to: sqlite3_destructor_type.self))
        }
        let columns = (0..<sqlite3_column_count(prepared)).map { String(cString: sqlite3_column_name(prepared, $0)) }
        var rows: [[FieldValue]] = []
        var budget = ReadOnlySQLBudget(request)
        while true {
            let status = sqlite3_step(prepared)
            if status == SQLITE_DONE { return budget.result(columns: columns, rows: rows, more: false) }
            guard status == SQLITE_ROW else { throw failure(guarding, request) }
            if rows.count == request.rowLimit { return budget.result(columns: columns, rows: rows, more: true) }
            if budget.pastDeadline { throw .timeLimit(request.timeLimit) }
            let row = (0..<Int32(columns.count)).map { Self.value(prepared, $0, &budget) }
            guard budget.take(row) else { return budget.result(columns: columns, rows: rows, more: true) }
            rows.append(row)
        }
    }

    /// The error of the last call, with the authorizer's reason or the time limit when they
    /// caused it.
    private func failure(_ guarding: SQLiteReadOnlyGuard, _ request: ReadOnlySQLRequest) -> ReadOnlySQLError {
        let code = sqlite3_errcode(handle)
        if code == SQLITE_INTERRUPT { return .timeLimit(request.timeLimit) }
        if code == SQLITE_AUTH, let refusal = guarding.refusal {
            return ReadOnlySQLError(.refused, refusal)
        }
        return ReadOnlySQLError(.database, String(cString: sqlite3_errmsg(handle)))
    }

    /// Column `column` of the current row; a text or blob longer than the value limit is copied
    /// only as far as the limit.
    private static func value(_ statement: OpaquePointer, _ column: Int32, _ budget: inout ReadOnlySQLBudget)
        -> FieldValue
    {
        switch sqlite3_column_type(statement, column) {
        case SQLITE_INTEGER: return .integer(sqlite3_column_int64(statement, column))
        case SQLITE_FLOAT: return .real(sqlite3_column_double(statement, column))
        case SQLITE_NULL: return .null
        case SQLITE_BLOB:
            guard let bytes = sqlite3_column_blob(statement, column) else { return .text("") }
            let count = Int(sqlite3_column_bytes(statement, column))
            let prefix = UnsafeRawBufferPointer(start: bytes, count: budget.blobPrefix(ofBytes: count))
            return budget.blob(prefix, total: count)
        default:
            guard let text = sqlite3_column_text(statement, column) else { return .null }
            let count = Int(sqlite3_column_bytes(statement, column))
            let prefix = UnsafeRawBufferPointer(start: text, count: min(count, budget.request.valueLimit + 4))
            return budget.text(prefix, total: count)
        }
    }
}

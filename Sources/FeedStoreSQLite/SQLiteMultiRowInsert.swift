import FeedStore
import GRDB
import GRDBSQLite

/// The `INSERT INTO table (...) VALUES (...), (...), ...` statements of one table, which write
/// many rows with one execution of SQLite's program.
///
/// Each execution of an insert starts the program, opens a cursor on the table and on each of
/// its indexes, and closes them again; one statement of 64 rows pays that once for all of them.
/// Measured with a C program inserting W1's 20,000 items and 40,000 tags (callgrind): 903 M
/// instructions one row per statement, 720 M at 64 rows per statement.
///
/// Rows go in statements of ``maxRows``, and what is left in powers of two (40 rows: 32 then 8),
/// so a table needs a handful of statements, each prepared once per connection.
final class SQLiteMultiRowInsert {
    /// Parameters per row.
    let columns: Int
    /// Rows per statement at most: 64, or fewer for a table so wide that 64 rows would pass
    /// SQLite's limit on parameters.
    let maxRows: Int
    private let prefix: String
    private let suffix: String
    private let constants: (SQLiteRawStatement, _ base: Int32) -> Void
    private var statements: [Int: SQLiteRawStatement] = [:]

    /// - Parameters:
    ///   - table: the quoted table name.
    ///   - names: the quoted column names, in parameter order.
    ///   - conflict: what follows the values, such as `ON CONFLICT (a) DO NOTHING`.
    ///   - constants: binds a row's parameters that are the same for every row of the pass,
    ///     given the parameter index before the row's first (SQLite keeps bindings across
    ///     resets, so they are bound once per statement).
    init(
        table: String, names: [String], conflict: String = "", db: Database,
        constants: @escaping (SQLiteRawStatement, _ base: Int32) -> Void = { _, _ in }
    ) {
        columns = names.count
        let parameterLimit = Int(sqlite3_limit(db.sqliteConnection, SQLITE_LIMIT_VARIABLE_NUMBER, -1))
        maxRows = max(1, min(64, parameterLimit / max(1, names.count)))
        prefix = "INSERT INTO \(table) (\(names.joined(separator: ", "))) VALUES "
        suffix = conflict.isEmpty ? "" : " " + conflict
        self.constants = constants
    }

    /// The rows of each statement that inserts `count` rows, in order: ``maxRows`` at a time,
    /// then powers of two.
    func statements(for count: Int) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        var done = 0
        while done < count {
            let left = count - done
            let rows = left >= maxRows ? maxRows : 1 << (Int.bitWidth - 1 - left.leadingZeroBitCount)
            ranges.append(done..<done + rows)
            done += rows
        }
        return ranges
    }

    /// Inserts `count` rows, in as many statements as it takes; `bind` binds row `index`'s own
    /// values, given the statement and the parameter index before the row's first.
    func insert(
        _ count: Int, texts: SQLiteTextBindings, in db: Database,
        bind: (_ index: Int, _ statement: SQLiteRawStatement, _ base: Int32) -> Void
    ) throws {
        for rows in statements(for: count) { _ = try insert(rows, texts: texts, in: db, bind: bind) }
    }

    /// Inserts `rows` (at most ``maxRows``) with one statement. Texts bound through `texts`
    /// stay valid until the statement has run.
    ///
    /// - Returns: the rows SQLite inserted: fewer than `rows` when the conflict clause skipped
    ///   some.
    func insert(
        _ rows: Range<Int>, texts: SQLiteTextBindings, in db: Database,
        bind: (_ index: Int, _ statement: SQLiteRawStatement, _ base: Int32) -> Void
    ) throws -> Int {
        let statement = try self.statement(rows: rows.count, in: db)
        for (offset, row) in rows.enumerated() { bind(row, statement, Int32(offset * columns)) }
        defer { texts.reset() }
        try statement.step(db)
        statement.reset()
        return db.changesCount
    }

    /// Drops every statement's bindings, which may point into a ``SQLiteTextBindings`` buffer.
    func clearBindings() {
        for statement in statements.values { statement.clearBindings() }
    }

    private func statement(rows: Int, in db: Database) throws -> SQLiteRawStatement {
        if let statement = statements[rows] { return statement }
        var sql = prefix
        sql.reserveCapacity(prefix.utf8.count + rows * columns * 6 + suffix.utf8.count)
        var parameter = 0
        for row in 0..<rows {
            sql += row == 0 ? "(" : ", ("
            for column in 0..<columns {
                parameter += 1
                sql += column == 0 ? "?\(parameter)" : ", ?\(parameter)"
            }
            sql += ")"
        }
        sql += suffix
        let statement = try SQLiteRawStatement(db, sql)
        for row in 0..<rows { constants(statement, Int32(row * columns)) }
        statements[rows] = statement
        return statement
    }
}

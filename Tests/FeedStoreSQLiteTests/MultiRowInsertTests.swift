import FeedStore
import GRDB
import GRDBSQLite
import Testing

@testable import FeedStoreSQLite

@Suite("Store: multi-row inserts")
struct MultiRowInsertTests {
    /// An in-memory database with a table `t(a, b, c)`, allowing `parameters` parameters a statement.
    func database(parameters: Int32) throws -> DatabaseQueue {
        let queue = try DatabaseQueue()
        try queue.write { db in
            sqlite3_limit(db.sqliteConnection, SQLITE_LIMIT_VARIABLE_NUMBER, parameters)
            try db.execute(sql: "CREATE TABLE t (a TEXT, b INTEGER, c TEXT)")
        }
        return queue
    }

    func insert(_ count: Int, into queue: DatabaseQueue) throws -> Int {
        try queue.write { db in
            let insert = SQLiteMultiRowInsert(table: "t", names: ["a", "b", "c"], db: db) { statement, base in
                statement.bind("constant", at: base + 3)
            }
            let texts = SQLiteTextBindings()
            try insert.insert(count, texts: texts, in: db) { index, statement, base in
                statement.bind("row-\(index)", at: base + 1, texts: texts)
                statement.bind(Int64(index), at: base + 2)
            }
            insert.clearBindings()
            return insert.maxRows
        }
    }

    @Test func rowsGoInOrderWithTheirConstants() throws {
        let queue = try database(parameters: 32766)
        #expect(try insert(150, into: queue) == 64)
        let rows = try queue.read { try Row.fetchAll($0, sql: "SELECT a, b, c FROM t ORDER BY rowid") }
        #expect(rows.map { $0["a"] as String } == (0..<150).map { "row-\($0)" })
        #expect(rows.map { $0["b"] as Int } == Array(0..<150))
        #expect(Set(rows.map { $0["c"] as String }) == ["constant"])
    }

    @Test func aStatementHoldsNoMoreRowsThanSQLiteHasParametersFor() throws {
        // 100 parameters hold 33 rows of 3 columns.
        let queue = try database(parameters: 100)
        #expect(try insert(100, into: queue) == 33)
        #expect(try queue.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM t") } == 100)
    }

    @Test func noRowsIsNoStatement() throws {
        let queue = try database(parameters: 32766)
        _ = try insert(0, into: queue)
        #expect(try queue.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM t") } == 0)
    }
}

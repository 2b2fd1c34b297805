import FeedStore
import GRDB
import GRDBSQLite
import Testing

@testable import FeedStoreSQLite

@Suite("SQLite dialect")
struct SQLiteDialectTests {
    @Test func theParameterLimitIsOneTheLinkedSQLiteAccepts() throws {
        let limit = try DatabaseQueue().read { db in
            sqlite3_limit(db.sqliteConnection, SQLITE_LIMIT_VARIABLE_NUMBER, -1)
        }
        #expect(Int(limit) >= SQLiteDialect().parameterLimit)
        #expect(SQLiteDialect().parameterLimit > 999)
    }
}

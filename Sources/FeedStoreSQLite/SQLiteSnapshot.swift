import FeedKit
import FeedStore
import GRDB

/// An SQLite read transaction.
struct SQLiteSnapshot: ExportSnapshot {
    let db: Database
    var dialect: any SQLDialect { SQLiteDialect() }

    func stream(_ query: ExportQuery, writer: inout any ExportWriter, to output: ExportOutput) throws -> ExportCount {
        try SQLiteRowStreamer.stream(query, in: db, writer: &writer, to: output)
    }

    func completeRun() throws -> Int64 { try SQLiteStore.completeRun(in: db) }
}

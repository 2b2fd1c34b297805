import FeedKit
import FeedStore
import GRDB

/// Steps an export query's statement and hands each row to a writer, one at a time: rows are
/// never collected, so memory stays flat whatever the table's size. The query's tombstones, if
/// any, follow the rows.
enum SQLiteRowStreamer {
    /// Runs `query` in `db` and writes its rows, then its deleted rows, with `writer`.
    static func stream(
        _ query: ExportQuery, in db: Database, writer: inout any ExportWriter, to output: ExportOutput
    ) throws -> ExportCount {
        var count = ExportCount()
        try writer.begin(output)
        count.rows = try step(query.sql, query.arguments, in: db) { row throws(ExportError) in
            try writer.write(row, to: output)
        }
        if let deleted = query.deleted {
            count.deleted = try step(deleted.sql, deleted.arguments, in: db) { row throws(ExportError) in
                try writer.writeDeleted(row, to: output)
            }
        }
        try writer.end(output)
        return count
    }

    /// Runs `sql` and hands each row to `body` (the same array, refilled); returns the count.
    private static func step(
        _ sql: String, _ arguments: [FieldValue], in db: Database,
        _ body: ([FieldValue]) throws(ExportError) -> Void
    ) throws -> Int {
        let statement = try SQLiteRawStatement(db, sql)
        defer { statement.reset() }
        for (index, argument) in arguments.enumerated() { statement.bind(argument, at: Int32(index + 1)) }
        let count = Int(statement.columnCount)
        var row = [FieldValue](repeating: .null, count: count)
        var rows = 0
        while try statement.step(db) {
            for column in 0..<count { row[column] = statement.value(column: Int32(column)) }
            try body(row)
            rows += 1
        }
        return rows
    }
}

import FeedKit
import GRDB

/// Steps an export query's statement and hands each row to a writer, one at a time: rows are
/// never collected, so memory stays flat whatever the table's size.
enum RowStreamer {
    /// Runs `query` in `db` and writes its rows with `writer`; returns the number of rows.
    static func stream(
        _ query: ExportQuery, in db: Database, writer: inout any ExportWriter, to output: ExportOutput
    ) throws -> Int {
        let statement = try RawStatement(db, query.sql)
        defer { statement.reset() }
        for (index, argument) in query.arguments.enumerated() { statement.bind(argument, at: Int32(index + 1)) }
        let count = Int(statement.columnCount)
        var row = [FieldValue](repeating: .null, count: count)
        var rows = 0
        try writer.begin(output)
        while try statement.step(db) {
            for column in 0..<count { row[column] = statement.value(column: Int32(column)) }
            try writer.write(row, to: output)
            rows += 1
        }
        try writer.end(output)
        return rows
    }
}

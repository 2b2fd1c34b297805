import FeedKit
import FeedStore

/// A PostgreSQL `REPEATABLE READ` read-only transaction: every statement sees the same data.
/// Rows come through a cursor, a thousand at a time, so memory stays flat.
struct PostgresSnapshot: ExportSnapshot {
    let connection: PostgresConnection
    package var dialect: any SQLDialect { PostgresDialect() }

    func stream(_ query: ExportQuery, writer: inout any ExportWriter, to output: ExportOutput) throws -> ExportCount {
        var count = ExportCount()
        try writer.begin(output)
        count.rows = try fetch(query.sql, query.arguments, typed: query.fields) { row throws(ExportError) in
            try writer.write(row, to: output)
        }
        if let deleted = query.deleted {
            count.deleted = try fetch(deleted.sql, deleted.arguments, typed: deleted.fields) {
                row throws(ExportError) in
                try writer.writeDeleted(row, to: output)
            }
        }
        try writer.end(output)
        return count
    }

    /// Runs `sql` through a cursor and hands each row, its columns typed as `fields`, to `body`
    /// (the same array, refilled); returns the count.
    private func fetch(
        _ sql: String, _ arguments: [FieldValue], typed fields: [ExportField],
        _ body: ([FieldValue]) throws(ExportError) -> Void
    ) throws -> Int {
        try connection.execute(
            "DECLARE feedwork_export NO SCROLL CURSOR FOR \(sql)", arguments.map(PostgresCopyText.text))
        defer { _ = try? connection.execute("CLOSE feedwork_export") }
        var row = [FieldValue](repeating: .null, count: fields.count)
        var count = 0
        while true {
            let rows = try connection.execute("FETCH 1000 FROM feedwork_export")
            guard rows.count > 0 else { break }
            for index in 0..<rows.count {
                for (column, field) in fields.enumerated() {
                    row[column] = PostgresValue.field(rows[index, column], type: field.type)
                }
                try body(row)
            }
            count += rows.count
        }
        return count
    }

    func completeRun() throws -> Int64 {
        let rows = try connection.execute(
            """
            SELECT COALESCE((SELECT MIN(id) - 1 FROM _runs WHERE status = 'running'), (SELECT MAX(id) FROM _runs), 0)
            """)
        return Int64(rows.first(column: 0) ?? "0") ?? 0
    }
}

extension PostgresStore {
    /// Runs `body` in one read-only `REPEATABLE READ` transaction.
    func snapshot<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection) throws -> T) async throws -> T {
        try await read { connection in
            try connection.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
            defer { _ = try? connection.execute("COMMIT") }
            return try body(connection)
        }
    }
}

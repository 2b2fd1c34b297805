import FeedKit

/// One consistent view of a store that an export reads all its tables from: a connection in a
/// read-only snapshot (``StoreReading/snapshotSQL(_:)``), the same for every driver.
package struct ExportSnapshot {
    /// The snapshot's connection.
    let connection: any SQLConnection
    /// The dialect the export's queries are written in.
    package let dialect: any SQLDialect

    package init(connection: any SQLConnection, dialect: any SQLDialect) {
        self.connection = connection
        self.dialect = dialect
    }

    /// Runs `query` and writes its rows, then its deleted rows, with `writer`, one row at a time:
    /// rows are never collected, so memory stays flat whatever the table's size.
    package func stream(_ query: ExportQuery, writer: inout any ExportWriter, to output: ExportOutput) throws
        -> ExportCount
    {
        var count = ExportCount()
        try writer.begin(output)
        count.rows = try connection.forEachRow(query.sql, query.arguments, types: query.fields.map(\.type)) {
            try writer.write($0, to: output)
        }
        if let deleted = query.deleted {
            count.deleted = try connection.forEachRow(
                deleted.sql, deleted.arguments, types: deleted.fields.map(\.type)
            ) { try writer.writeDeleted($0, to: output) }
        }
        try writer.end(output)
        return count
    }

    /// The highest run id whose changes the snapshot holds completely: runs still `running`
    /// have not committed, so the bound stops before the first of them.
    package func completeRun() throws -> Int64 {
        let rows = try connection.rows(
            """
            SELECT COALESCE((SELECT MIN(id) - 1 FROM _runs WHERE status = 'running'), (SELECT MAX(id) FROM _runs), 0)
            """, [])
        return rows.first?.first?.integer ?? 0
    }
}

extension StoreReading {
    /// Runs `body` on one consistent snapshot of the store, which an export reads all its
    /// tables from; errors of the export itself pass through unwrapped.
    package func exportSnapshot<T: Sendable>(_ body: @escaping @Sendable (ExportSnapshot) throws -> T)
        async throws -> T
    {
        let dialect = dialect
        return try await snapshotSQL { try body(ExportSnapshot(connection: $0, dialect: dialect)) }
    }
}

import FeedKit

/// One consistent view of a store that an export reads all its tables from.
package protocol ExportSnapshot {
    /// The dialect the export's queries are written in.
    var dialect: any SQLDialect { get }
    /// Runs `query` and writes its rows, then its deleted rows, with `writer`, one row at a time.
    func stream(_ query: ExportQuery, writer: inout any ExportWriter, to output: ExportOutput) throws -> ExportCount
    /// The highest run id whose changes the snapshot holds completely.
    func completeRun() throws -> Int64
}

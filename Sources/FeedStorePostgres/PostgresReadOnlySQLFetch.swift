import FeedKit
import FeedStore

/// How a read-only statement's cursor is read: libpq holds a whole `FETCH` in memory before its
/// first value is looked at, so the batches start at one row and grow only while the rows are
/// small (to what is left of the byte limit over the largest row seen, at most 100 rows). A value
/// over the value limit still comes whole from the server; what bounds memory is one batch, which
/// is a single row once the rows are large. Values are cut before they are copied.
struct PostgresReadOnlySQLFetch {
    /// The most rows one `FETCH` asks for.
    static let largestBatch = 100

    private(set) var budget: ReadOnlySQLBudget
    private var columns: [String] = []
    private var rows: [[FieldValue]] = []
    private var largestRow = 0
    private var done = false
    private var more = false

    init(_ budget: ReadOnlySQLBudget) { self.budget = budget }

    /// How many rows the next `FETCH` asks for, or `nil` when the reading is over: the rows ran
    /// out, the row or byte limit was reached, or the deadline passed.
    mutating func nextBatch() -> Int? {
        guard !done, !budget.pastDeadline else { return nil }
        let wanted = budget.request.rowLimit + 1 - rows.count
        guard largestRow > 0 else { return min(1, wanted) }
        let left = max(0, budget.request.byteLimit - budget.bytes)
        return max(1, min(wanted, Self.largestBatch, left / largestRow))
    }

    /// The milliseconds left before the deadline, for the next `FETCH`'s `statement_timeout`.
    var millisecondsLeft: Int64 {
        let left = budget.request.deadline - ContinuousClock.now
        return max(1, left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000)
    }

    /// Takes the rows of one `FETCH` of `asked` rows.
    mutating func read(_ batch: PostgresRows, asked: Int) {
        if columns.isEmpty { columns = batch.columns }
        let types = columns.indices.map { PostgresValueType(oid: batch.typeOID(ofColumn: $0)) }
        for index in 0..<batch.count {
            if rows.count == budget.request.rowLimit {
                more = true
                done = true
                return
            }
            var raw = 0
            let row = columns.indices.map { column in
                let length = batch.length(row: index, column: column)
                raw += length
                guard length > budget.request.valueLimit else { return types[column].value(batch[index, column]) }
                return batch.withPrefix(row: index, column: column, count: budget.request.valueLimit + 4) {
                    budget.text($0, total: length)
                }
            }
            largestRow = max(largestRow, raw, 1)
            guard budget.take(row) else {
                more = true
                done = true
                return
            }
            rows.append(row)
        }
        if batch.count < asked { done = true }
    }

    /// The rows read, and why they are not all of the statement's.
    var result: ReadOnlySQLResult { budget.result(columns: columns, rows: rows, more: more) }
}

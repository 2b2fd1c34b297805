import FeedStore

/// Rows of a `COPY ... FROM STDIN` encoded ahead of the COPY, with the key each row belongs to.
///
/// The writer encodes new records as their pages arrive and ships the text in one COPY later
/// (``PostgresEntityWriter/sendDirect(_:)``): the records themselves are not held, and the
/// COPY sends bytes without building them while the server waits. The keys name the record
/// of a row the server refuses (its error gives the row's line).
struct PostgresCopyBuffer {
    /// The rows in COPY's text format (``PostgresCopyStream/encode(_:into:)``).
    private(set) var text: [UInt8] = []
    /// The key of each row's record, in row order.
    private(set) var keys: [String] = []
    private var row: [String?] = []

    var isEmpty: Bool { keys.isEmpty }
    /// The number of rows.
    var count: Int { keys.count }

    /// Appends one row for the record `key`; `fill` appends its values in the COPY's column order.
    mutating func append(key: String, _ fill: (inout [String?]) -> Void) {
        row.removeAll(keepingCapacity: true)
        fill(&row)
        PostgresCopyStream.encode(row, into: &text)
        keys.append(key)
    }

    /// Empties the buffer, keeping its memory for the next rows.
    mutating func removeAll() {
        text.removeAll(keepingCapacity: true)
        keys.removeAll(keepingCapacity: true)
    }
}

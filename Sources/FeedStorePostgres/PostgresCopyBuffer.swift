import FeedKit
import FeedStore

/// Rows of a `COPY ... FROM STDIN` encoded ahead of the COPY, with the key each row belongs to.
///
/// The writer encodes new records as their pages arrive and ships the bytes in one COPY later
/// (``PostgresEntityWriter/sendDirect(_:)``): the records themselves are not held, and the
/// COPY sends bytes without building them while the server waits. The keys name the record
/// of a row the server refuses (its error gives the row's line).
///
/// Rows are held in COPY's binary format (``PostgresCopyBinary``), which the server stores
/// without parsing timestamps and decimals from text: most of its work on W1's rows as text.
/// A row with a value that binary would not store exactly as its text does is held in the text
/// format instead (``PostgresCopyText``), and sent in a COPY of its own, before the binary rows.
struct PostgresCopyBuffer {
    /// The rows in COPY's binary format, without the header and trailer.
    private(set) var binary: [UInt8] = []
    /// The key of each row of ``binary``, in row order.
    private(set) var binaryKeys: [String] = []
    /// The rows in COPY's text format (``PostgresCopyStream/encode(_:into:)``).
    private(set) var text: [UInt8] = []
    /// The key of each row of ``text``, in row order.
    private(set) var textKeys: [String] = []

    var isEmpty: Bool { binaryKeys.isEmpty && textKeys.isEmpty }
    /// The number of rows.
    var count: Int { binaryKeys.count + textKeys.count }

    /// Appends one row for the record `key`; `fill` appends its values in the COPY's column
    /// order. It is called a second time, writing text, when a value cannot go in binary.
    mutating func append(key: String, _ fill: (inout Row) -> Void) {
        var row = Row(binary: true)
        swap(&row.bytes, &binary)
        let start = row.bytes.count
        PostgresCopyBinary.appendBigEndian(Int16(0), to: &row.bytes)  // The field count, written after.
        fill(&row)
        if !row.failed {
            row.bytes[start] = UInt8(truncatingIfNeeded: row.fields >> 8)
            row.bytes[start + 1] = UInt8(truncatingIfNeeded: row.fields)
            swap(&row.bytes, &binary)
            binaryKeys.append(key)
            return
        }
        row.bytes.removeSubrange(start...)
        swap(&row.bytes, &binary)
        var textRow = Row(binary: false)
        swap(&textRow.bytes, &text)
        fill(&textRow)
        textRow.bytes.append(UInt8(ascii: "\n"))
        swap(&textRow.bytes, &text)
        textKeys.append(key)
    }

    /// Empties the buffer, keeping its memory for the next rows.
    mutating func removeAll() {
        binary.removeAll(keepingCapacity: true)
        binaryKeys.removeAll(keepingCapacity: true)
        text.removeAll(keepingCapacity: true)
        textKeys.removeAll(keepingCapacity: true)
    }

    /// One row being appended: each value written straight into the buffer's bytes, in binary
    /// (``PostgresCopyBinary``) or in the text that ``PostgresCopyText`` gives and
    /// ``PostgresCopyStream/encode(_:into:)`` escapes, without a `String` made for each number
    /// (``integer(_:)``).
    struct Row {
        fileprivate var bytes: [UInt8] = []
        /// Whether the row is written in binary.
        private let binary: Bool
        /// Whether a value could not be written in binary: the row is then written as text.
        fileprivate private(set) var failed = false
        /// The number of values written.
        fileprivate private(set) var fields = 0

        fileprivate init(binary: Bool) { self.binary = binary }

        /// Counts a value; in text, writes the tab before every value but the first.
        private mutating func separate() {
            if !binary && fields > 0 { bytes.append(UInt8(ascii: "\t")) }
            fields += 1
        }

        /// A value of a `text` column; NULL for `nil`.
        mutating func text(_ value: String?) {
            guard !failed else { return }
            separate()
            if binary { return PostgresCopyBinary.appendText(value, to: &bytes) }
            guard let value else {
                bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "N")])
                return
            }
            PostgresCopyStream.appendEscaped(value, to: &bytes)
        }

        /// A value of a `bigint` column; in text, its decimal digits, as `String(value)` writes them.
        mutating func integer(_ value: Int64) {
            guard !failed else { return }
            separate()
            if binary { return PostgresCopyBinary.appendInteger(value, to: &bytes) }
            if value < 0 { bytes.append(UInt8(ascii: "-")) }
            var magnitude = value.magnitude
            // At most 20 digits (UInt64.max), written from the last.
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
                var start = digits.count
                repeat {
                    start -= 1
                    digits[start] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                    magnitude /= 10
                } while magnitude > 0
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: digits[start...]))
            }
        }

        /// A value of a `timestamptz` column: `text`, whose microseconds since 2000-01-01 UTC
        /// (``PostgresCopyBinary/timestampMicroseconds(_:)``) are worked out once by the caller
        /// for a value every row repeats, such as the pass's stamp.
        mutating func timestamp(_ text: String, microseconds: Int64?) {
            guard binary else { return self.text(text) }
            guard !failed else { return }
            guard let microseconds else {
                failed = true
                return
            }
            separate()
            PostgresCopyBinary.appendTimestamp(microseconds, to: &bytes)
        }

        /// A record's values, of columns of `types`, as ``PostgresCopyText/text(_:)`` gives
        /// them in text.
        mutating func values(_ values: [FieldValue], as types: [ColumnType]) {
            guard !failed else { return }
            guard binary else {
                for value in values {
                    switch value {
                    case .integer(let number): integer(number)
                    case .text(let text): self.text(text)
                    default: text(PostgresCopyText.text(value))
                    }
                }
                return
            }
            // The server refuses a row of the wrong width: in text, as it always did.
            guard values.count == types.count else {
                failed = true
                return
            }
            for (value, type) in zip(values, types) {
                separate()
                guard PostgresCopyBinary.append(value, as: type, to: &bytes) else {
                    failed = true
                    return
                }
            }
        }
    }
}

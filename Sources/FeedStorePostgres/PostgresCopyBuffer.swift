import FeedKit
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

    var isEmpty: Bool { keys.isEmpty }
    /// The number of rows.
    var count: Int { keys.count }

    /// Appends one row for the record `key`; `fill` appends its values in the COPY's column order.
    mutating func append(key: String, _ fill: (inout Row) -> Void) {
        var row = Row()
        swap(&row.bytes, &text)
        fill(&row)
        row.bytes.append(UInt8(ascii: "\n"))
        swap(&row.bytes, &text)
        keys.append(key)
    }

    /// Empties the buffer, keeping its memory for the next rows.
    mutating func removeAll() {
        text.removeAll(keepingCapacity: true)
        keys.removeAll(keepingCapacity: true)
    }

    /// One row being appended: each value written straight into the buffer's bytes, in the
    /// text that ``PostgresCopyText`` gives and ``PostgresCopyStream/encode(_:into:)`` escapes,
    /// without a `String` made for each number (``integer(_:)``).
    struct Row {
        fileprivate var bytes: [UInt8] = []
        private var started = false

        fileprivate init() {}

        /// The tab before every value but the first.
        private mutating func separate() {
            if started { bytes.append(UInt8(ascii: "\t")) } else { started = true }
        }

        /// A text value, escaped; `\N` for `nil` (NULL).
        mutating func text(_ value: String?) {
            separate()
            guard let value else {
                bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "N")])
                return
            }
            PostgresCopyStream.appendEscaped(value, to: &bytes)
        }

        /// An integer's decimal digits, as `String(value)` writes them.
        mutating func integer(_ value: Int64) {
            separate()
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

        /// A record's value, as ``PostgresCopyText/text(_:)`` gives it.
        mutating func value(_ value: FieldValue) {
            switch value {
            case .integer(let number): integer(number)
            case .text(let text): self.text(text)
            default: text(PostgresCopyText.text(value))
            }
        }
    }
}

import FeedKit

/// What a driver reading a read-only statement's rows keeps count of: the bytes of the values
/// taken so far against ``ReadOnlySQLRequest/byteLimit``, the values cut at
/// ``ReadOnlySQLRequest/valueLimit``, and the deadline; it cuts values before they are copied
/// whole and says why a result is not whole.
package struct ReadOnlySQLBudget {
    package let request: ReadOnlySQLRequest
    /// The bytes of the values taken so far.
    package private(set) var bytes = 0
    /// How many values of the rows taken were cut.
    package private(set) var cutValues = 0
    /// How many values of the row being read were cut.
    private var cutInRow = 0
    /// Whether a row was left out because it would pass the byte limit.
    package private(set) var byteLimitReached = false

    package init(_ request: ReadOnlySQLRequest) { self.request = request }

    /// What follows a cut value: `…[cut: 100000000 bytes]`.
    package static func marker(ofBytes total: Int) -> String { "…[cut: \(total) bytes]" }

    /// Whether the time limit has passed: the rows stop being read.
    package var pastDeadline: Bool { ContinuousClock.now >= request.deadline }

    /// Takes `row` when its values fit in what is left of the byte limit; `false` (and the
    /// result will say so) when they do not.
    package mutating func take(_ row: [FieldValue]) -> Bool {
        let size = row.reduce(0) { $0 + Self.size(of: $1) }
        defer { cutInRow = 0 }
        guard bytes + size <= request.byteLimit else {
            byteLimitReached = true
            return false
        }
        bytes += size
        cutValues += cutInRow
        return true
    }

    /// UTF-8 text of `total` bytes whose first bytes are `prefix` (at most the value limit, or
    /// all of it): the text, cut at a character's boundary with the marker when `total` is over
    /// the limit.
    package mutating func text(_ prefix: UnsafeRawBufferPointer, total: Int) -> FieldValue {
        guard total > request.valueLimit else { return .text(String(decoding: prefix, as: UTF8.self)) }
        cutInRow += 1
        var end = min(prefix.count, request.valueLimit)
        while end > 0, end < prefix.count, prefix[end] & 0xC0 == 0x80 { end -= 1 }
        return .text(String(decoding: prefix[..<end], as: UTF8.self) + Self.marker(ofBytes: total))
    }

    /// How many bytes of a blob of `total` bytes to read: its hex is twice as long, so half the
    /// value limit.
    package func blobPrefix(ofBytes total: Int) -> Int { min(total, request.valueLimit / 2) }

    /// A blob of `total` bytes whose first bytes are `prefix` as lowercase hex, with the marker
    /// when it was cut.
    package mutating func blob(_ prefix: UnsafeRawBufferPointer, total: Int) -> FieldValue {
        let digits: [UInt8] = Array("0123456789abcdef".utf8)
        var hex = [UInt8]()
        hex.reserveCapacity(prefix.count * 2)
        for byte in prefix {
            hex.append(digits[Int(byte >> 4)])
            hex.append(digits[Int(byte & 0x0F)])
        }
        let text = String(decoding: hex, as: UTF8.self)
        guard total > prefix.count else { return .text(text) }
        cutInRow += 1
        return .text(text + Self.marker(ofBytes: total))
    }

    /// The result of `rows`, `more` when rows were left (the row limit), with the reason it is
    /// not whole.
    package func result(columns: [String], rows: [[FieldValue]], more: Bool) -> ReadOnlySQLResult {
        var reasons: [String] = []
        if byteLimitReached {
            reasons.append(
                "the rows came to more than \(Self.text(ofBytes: request.byteLimit)) (the byte limit): only the first"
                    + " \(rows.count) are shown")
        } else if more {
            reasons.append("the statement returned more than \(request.rowLimit) rows (the row limit)")
        }
        if cutValues > 0 {
            reasons.append(
                "\(cutValues) value\(cutValues == 1 ? " was" : "s were") longer than"
                    + " \(Self.text(ofBytes: request.valueLimit)) and cut (marked …[cut: N bytes])")
        }
        return ReadOnlySQLResult(
            columns: columns, rows: rows, truncated: !reasons.isEmpty,
            truncatedReason: reasons.isEmpty ? nil : reasons.joined(separator: "; "))
    }

    /// `8 MiB`, `256 KiB`, `100 bytes`.
    package static func text(ofBytes count: Int) -> String {
        if count >= 1 << 20, count % (1 << 20) == 0 { return "\(count >> 20) MiB" }
        if count >= 1 << 10, count % (1 << 10) == 0 { return "\(count >> 10) KiB" }
        return "\(count) bytes"
    }

    /// The bytes `value` adds to a result: its text's, or a number's digits.
    private static func size(of value: FieldValue) -> Int {
        switch value {
        case .text(let text): text.utf8.count + 2
        default: 8
        }
    }
}

import FeedKit
import FeedStore

/// Record values as the fields of a `COPY ... FROM STDIN (FORMAT binary)` row: each a 32-bit
/// length (-1 for NULL) and the value in the binary form PostgreSQL's `*_recv` functions read
/// for the column's type, so that the server stores the value without parsing its text.
///
/// A value is only encoded when its binary form stores exactly what ``PostgresCopyText``'s
/// text would have stored: integers as `bigint`, reals as `double precision` (NaN as NULL, as
/// in the text), booleans, texts, JSON (`jsonb`, whose binary form is its text after a version
/// byte), and the canonical texts of decimals (`-123.4500`, `NaN`), timestamps (ISO 8601
/// with seconds, at most six digits of fraction and `Z` or an offset) and dates
/// (`2024-02-29`). Anything else (a decimal in exponent form, a timestamp without a zone, which
/// the server would read in its session's time zone, an impossible date, a text in an integer
/// column) is refused: its row is sent as text instead (``PostgresCopyBuffer``), and the server
/// parses it, or refuses it with its own message, as it always did.
enum PostgresCopyBinary {
    /// The start of a binary COPY's data: its signature, no flags and no header extension.
    static let header: [UInt8] = Array("PGCOPY\n".utf8) + [0xff, 0x0d, 0x0a, 0x00] + [0, 0, 0, 0] + [0, 0, 0, 0]
    /// The end of a binary COPY's data: a field count of -1.
    static let trailer: [UInt8] = [0xff, 0xff]

    /// Appends `value` as a field of a column of `type`, or returns `false` (appending nothing)
    /// when its binary form would not store exactly what its text does.
    static func append(_ value: FieldValue, as type: ColumnType, to bytes: inout [UInt8]) -> Bool {
        switch (value, type) {
        case (.null, _):
            appendNull(to: &bytes)
        case (.real(let number), _) where number.isNaN:
            appendNull(to: &bytes)
        case (.integer(let number), .integer):
            appendInteger(number, to: &bytes)
        case (.integer(let number), .real):
            // The text's digits read back as the nearest double, as the conversion rounds.
            appendReal(Double(number), to: &bytes)
        case (.real(let number), .real):
            appendReal(number, to: &bytes)
        case (.bool(let flag), .boolean):
            appendBoolean(flag, to: &bytes)
        case (.integer(let number), .boolean) where number == 0 || number == 1:
            // `1` and `0` read as true and false.
            appendBoolean(number == 1, to: &bytes)
        case (_, .text):
            appendText(PostgresCopyText.text(value), to: &bytes)
        case (_, .json):
            appendJSON(PostgresCopyText.text(value), to: &bytes)
        case (.text(let text), .decimal):
            return appendNumeric(text, to: &bytes)
        case (.integer(let number), .decimal):
            return appendNumeric(String(number), to: &bytes)
        case (.real, .decimal):
            return PostgresCopyText.text(value).map { appendNumeric($0, to: &bytes) } ?? false
        case (.text(let text), .timestamp):
            guard let microseconds = timestampMicroseconds(text) else { return false }
            appendTimestamp(microseconds, to: &bytes)
        case (.text(let text), .date):
            guard let days = dateDays(text) else { return false }
            appendLength(4, to: &bytes)
            appendBigEndian(days, to: &bytes)
        default:
            return false
        }
        return true
    }

    static func appendNull(to bytes: inout [UInt8]) { appendLength(-1, to: &bytes) }

    /// A `bigint`.
    static func appendInteger(_ number: Int64, to bytes: inout [UInt8]) {
        appendLength(8, to: &bytes)
        appendBigEndian(number, to: &bytes)
    }

    /// A `double precision`: its IEEE 754 bits.
    static func appendReal(_ number: Double, to bytes: inout [UInt8]) {
        appendLength(8, to: &bytes)
        appendBigEndian(number.bitPattern, to: &bytes)
    }

    static func appendBoolean(_ flag: Bool, to bytes: inout [UInt8]) {
        appendLength(1, to: &bytes)
        bytes.append(flag ? 1 : 0)
    }

    /// A `text`: its UTF-8; NULL for `nil`.
    static func appendText(_ text: String?, to bytes: inout [UInt8]) {
        guard var text else { return appendNull(to: &bytes) }
        text.withUTF8 { utf8 in
            appendLength(Int32(utf8.count), to: &bytes)
            bytes.append(contentsOf: utf8)
        }
    }

    /// A `jsonb`: version 1, then the document's text, which the server parses as for `jsonb`'s
    /// text input; NULL for `nil`.
    static func appendJSON(_ text: String?, to bytes: inout [UInt8]) {
        guard var text else { return appendNull(to: &bytes) }
        text.withUTF8 { utf8 in
            appendLength(Int32(utf8.count + 1), to: &bytes)
            bytes.append(1)
            bytes.append(contentsOf: utf8)
        }
    }

    /// A `timestamptz`: microseconds since 2000-01-01 00:00:00 UTC.
    static func appendTimestamp(_ microseconds: Int64, to bytes: inout [UInt8]) {
        appendLength(8, to: &bytes)
        appendBigEndian(microseconds, to: &bytes)
    }

    /// A field's length.
    private static func appendLength(_ length: Int32, to bytes: inout [UInt8]) {
        appendBigEndian(length, to: &bytes)
    }

    /// `value`'s bytes, most significant first, appended one by one: appending the bytes of
    /// `withUnsafeBytes(of:)` took a generic path of about 100 instructions a field (W1's first
    /// pass at 20,000 rows: 1,029 M instructions against 1,123 M; 1,046 M copying them as a
    /// buffer of `UInt8`).
    @inline(__always)
    static func appendBigEndian<T: FixedWidthInteger>(_ value: T, to bytes: inout [UInt8]) {
        var shift = T.bitWidth - 8
        while shift >= 0 {
            bytes.append(UInt8(truncatingIfNeeded: value >> shift))
            shift -= 8
        }
    }
}

/// `numeric`, from the exact decimal text.
extension PostgresCopyBinary {
    /// `numeric`'s sign word for a negative value, and for NaN.
    private static let negative: UInt16 = 0x4000
    private static let notANumber: UInt16 = 0xC000

    /// The most digits on either side of the point sent in binary; longer texts go as text.
    private static let numericDigits = 1000

    /// Appends `text`, a decimal written `-?digits(.digits)?` or `NaN`, as a `numeric`:
    /// `ndigits`, `weight`, `sign` and `dscale` (16 bits each), then the base-10,000 digits,
    /// most significant first, the value being the sum of each digit times 10,000 to the power
    /// of `weight` minus its place. Leading and trailing zero digits are left out, and `dscale`
    /// is the number of digits written after the point (which the stored value keeps, as
    /// `1.50` keeps two); zero is never negative (`-0.0` is stored `0.0`, as its text is).
    ///
    /// - Returns: `false`, appending nothing, for any other text.
    static func appendNumeric(_ text: String, to bytes: inout [UInt8]) -> Bool {
        if text == "NaN" {
            appendLength(8, to: &bytes)
            for word in [0, 0, notANumber, 0] as [UInt16] { appendBigEndian(word, to: &bytes) }
            return true
        }
        var text = text
        return text.withUTF8 { utf8 in
            guard let parts = decimalParts(utf8) else { return false }
            let start = bytes.count
            appendLength(0, to: &bytes)  // Written once the digits are known.
            let header = bytes.count
            bytes.append(contentsOf: repeatElement(0, count: 8))
            let integerDigits = parts.integer.count
            var weight = (integerDigits + 3) / 4 - 1
            var written = 0  // Base-10,000 digits appended, up to the last non-zero one.
            var appended = 0  // The same, with the zero digits after it.
            var group = 0
            // Pad the integer part on the left so that its digits fall in groups of four.
            var inGroup = (4 - integerDigits % 4) % 4
            func close() {
                if group == 0 && appended == 0 {
                    weight -= 1  // A leading zero digit: the value starts one place lower.
                } else {
                    appendBigEndian(UInt16(group), to: &bytes)
                    appended += 1
                    if group != 0 { written = appended }
                }
                group = 0
                inGroup = 0
            }
            for digit in parts.integer {
                group = group * 10 + Int(digit &- UInt8(ascii: "0"))
                inGroup += 1
                if inGroup == 4 { close() }
            }
            for digit in parts.fraction {
                group = group * 10 + Int(digit &- UInt8(ascii: "0"))
                inGroup += 1
                if inGroup == 4 { close() }
            }
            if inGroup > 0 {
                for _ in inGroup..<4 { group *= 10 }
                close()
            }
            bytes.removeLast(2 * (appended - written))
            let isZero = written == 0
            func patch(_ word: UInt16, at offset: Int) {
                bytes[offset] = UInt8(truncatingIfNeeded: word >> 8)
                bytes[offset + 1] = UInt8(truncatingIfNeeded: word)
            }
            patch(UInt16(written), at: header)
            patch(UInt16(bitPattern: Int16(isZero ? 0 : weight)), at: header + 2)
            patch(parts.negative && !isZero ? negative : 0, at: header + 4)
            patch(UInt16(parts.fraction.count), at: header + 6)
            let length = UInt32(bytes.count - header)
            for offset in 0..<4 { bytes[start + offset] = UInt8(truncatingIfNeeded: length >> (24 - 8 * offset)) }
            return true
        }
    }

    /// The sign and the digits before and after the point of `-?digits(.digits)?`, the integer
    /// part without its leading zeros; `nil` for any other text or too many digits.
    private static func decimalParts(_ utf8: UnsafeBufferPointer<UInt8>)
        -> (negative: Bool, integer: UnsafeBufferPointer<UInt8>, fraction: UnsafeBufferPointer<UInt8>)?
    {
        func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
        var index = 0
        let negative = !utf8.isEmpty && utf8[0] == UInt8(ascii: "-")
        if negative { index += 1 }
        let integerStart = index
        while index < utf8.count, isDigit(utf8[index]) { index += 1 }
        guard index > integerStart else { return nil }
        var significant = integerStart
        while significant < index, utf8[significant] == UInt8(ascii: "0") { significant += 1 }
        let integer = UnsafeBufferPointer(rebasing: utf8[significant..<index])
        var fraction = UnsafeBufferPointer(rebasing: utf8[index..<index])
        if index < utf8.count, utf8[index] == UInt8(ascii: ".") {
            index += 1
            let fractionStart = index
            while index < utf8.count, isDigit(utf8[index]) { index += 1 }
            guard index > fractionStart else { return nil }
            fraction = UnsafeBufferPointer(rebasing: utf8[fractionStart..<index])
        }
        guard index == utf8.count, integer.count <= numericDigits, fraction.count <= numericDigits else { return nil }
        return (negative, integer, fraction)
    }
}

/// `timestamptz` and `date`, from ISO 8601 text.
extension PostgresCopyBinary {
    /// Days from 1970-01-01 to 2000-01-01, PostgreSQL's epoch.
    private static let epochDays: Int64 = 10_957

    /// The microseconds since 2000-01-01 UTC of `text`, written `YYYY-MM-DD`, `T` (or a space),
    /// `HH:MM:SS`, an optional fraction of at most six digits, and `Z` or an offset (`+01:00`,
    /// `+0100`, `+01`, up to 14 hours), for a date and time that exist (years 1 to 9999, no leap
    /// second): what the server reads from that text. `nil` for any other text.
    static func timestampMicroseconds(_ text: String) -> Int64? {
        var text = text
        return text.withUTF8 { utf8 -> Int64? in
            var scanner = Scanner(bytes: utf8)
            guard let days = scanner.date(), scanner.expect(UInt8(ascii: "T")) || scanner.expect(UInt8(ascii: " ")),
                let hour = scanner.number(2), hour <= 23, scanner.expect(UInt8(ascii: ":")),
                let minute = scanner.number(2), minute <= 59, scanner.expect(UInt8(ascii: ":")),
                let second = scanner.number(2), second <= 59
            else { return nil }
            var micro: Int64 = 0
            if scanner.expect(UInt8(ascii: ".")) {
                var digits = 0
                while digits < 7, let digit = scanner.number(1) {
                    micro = micro * 10 + digit
                    digits += 1
                }
                guard digits >= 1, digits <= 6 else { return nil }
                for _ in digits..<6 { micro *= 10 }
            }
            var offset: Int64 = 0
            if !scanner.expect(UInt8(ascii: "Z")) {
                guard !scanner.atEnd else { return nil }  // No zone: the server's would apply.
                let sign: Int64
                if scanner.expect(UInt8(ascii: "+")) {
                    sign = 1
                } else if scanner.expect(UInt8(ascii: "-")) {
                    sign = -1
                } else {
                    return nil
                }
                guard let hours = scanner.number(2), hours <= 14 else { return nil }
                var minutes: Int64 = 0
                if !scanner.atEnd {
                    _ = scanner.expect(UInt8(ascii: ":"))
                    guard let value = scanner.number(2), value <= 59 else { return nil }
                    minutes = value
                }
                offset = sign * (hours * 3600 + minutes * 60)
            }
            guard scanner.atEnd else { return nil }
            let seconds = (days * 86_400) + hour * 3600 + minute * 60 + second - offset
            return seconds * 1_000_000 + micro
        }
    }

    /// The days since 2000-01-01 of `text`, a date `YYYY-MM-DD` that exists (years 1 to 9999);
    /// `nil` for any other text.
    static func dateDays(_ text: String) -> Int32? {
        var text = text
        return text.withUTF8 { utf8 -> Int32? in
            var scanner = Scanner(bytes: utf8)
            guard let days = scanner.date(), scanner.atEnd else { return nil }
            return Int32(days)
        }
    }

    /// Reads a date and time from UTF-8 bytes, digits by fixed counts.
    private struct Scanner {
        let bytes: UnsafeBufferPointer<UInt8>
        var index = 0

        init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

        var atEnd: Bool { index == bytes.count }

        mutating func number(_ digits: Int) -> Int64? {
            guard index + digits <= bytes.count else { return nil }
            var value: Int64 = 0
            for offset in 0..<digits {
                let byte = bytes[index + offset]
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int64(byte - UInt8(ascii: "0"))
            }
            index += digits
            return value
        }

        mutating func expect(_ byte: UInt8) -> Bool {
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }

        /// `YYYY-MM-DD` as days since 2000-01-01, when the date exists (``CivilTime``'s calendar).
        mutating func date() -> Int64? {
            guard let year = number(4), year >= 1, expect(UInt8(ascii: "-")), let month = number(2),
                expect(UInt8(ascii: "-")), let day = number(2),
                let seconds = CivilTime.unixSeconds(year: Int(year), month: Int(month), day: Int(day))
            else { return nil }
            return seconds / 86_400 - PostgresCopyBinary.epochDays
        }
    }
}

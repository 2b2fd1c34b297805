/// A strict ISO 8601 date-time parser that needs no locale or calendar data.
///
/// Accepts `YYYY-MM-DDTHH:MM:SS`, optional fractional seconds, and a zone: `Z`, `+HH:MM`,
/// `+HHMM` or `+HH` (the form `2019-11-05T15:56:59+0000` among them). A date alone
/// (`YYYY-MM-DD`) is midnight UTC.
public enum ISO8601 {
    /// Seconds since 1970 of `text`, or `nil` when it is not a valid date-time.
    public static func parse(_ text: String) -> Double? {
        var text = text
        // Read in place: every timestamp of every record comes through here.
        return text.withUTF8 { bytes in
            var scanner = Scanner(bytes: bytes)
            return scanner.dateTime()
        }
    }

    /// Reads one date-time from UTF-8 bytes.
    private struct Scanner {
        let bytes: UnsafeBufferPointer<UInt8>
        var index = 0

        mutating func number(_ digits: Int) -> Int? {
            guard index + digits <= bytes.count else { return nil }
            var value = 0
            for _ in 0..<digits {
                let b = bytes[index]
                guard b >= 48, b <= 57 else { return nil }
                value = value * 10 + Int(b - 48)
                index += 1
            }
            return value
        }

        mutating func expect(_ character: UInt8) -> Bool {
            guard index < bytes.count, bytes[index] == character else { return false }
            index += 1
            return true
        }

        mutating func dateTime() -> Double? {
            guard let year = number(4), expect(45), let month = number(2), expect(45), let day = number(2) else {
                return nil
            }
            if index == bytes.count {
                return CivilTime.unixSeconds(year: year, month: month, day: day).map(Double.init)
            }
            guard expect(84) || expect(116) || expect(32), let hour = number(2), expect(58), let minute = number(2),
                expect(58), let second = number(2)
            else { return nil }
            var fraction = 0.0
            if expect(46) {
                var scale = 0.1
                let start = index
                while index < bytes.count, bytes[index] >= 48, bytes[index] <= 57 {
                    fraction += Double(bytes[index] - 48) * scale
                    scale /= 10
                    index += 1
                }
                guard index > start else { return nil }
            }
            var offset = 0
            if expect(90) || expect(122) {
                offset = 0
            } else if index < bytes.count, bytes[index] == 43 || bytes[index] == 45 {
                let sign = bytes[index] == 45 ? -1 : 1
                index += 1
                guard let hours = number(2), hours <= 23 else { return nil }
                var minutes = 0
                if index < bytes.count {
                    _ = expect(58)
                    guard let value = number(2), value <= 59 else { return nil }
                    minutes = value
                }
                offset = sign * (hours * 3600 + minutes * 60)
            } else {
                return nil
            }
            guard index == bytes.count,
                let seconds = CivilTime.unixSeconds(
                    year: year, month: month, day: day, hour: hour, minute: minute, second: second)
            else { return nil }
            return Double(seconds - Int64(offset)) + fraction
        }
    }

    /// `text` as a normalized UTC timestamp (`2019-11-05T15:56:59Z`), or `nil`.
    public static func normalized(_ text: String) -> String? {
        guard let seconds = parse(text) else { return nil }
        let whole = seconds.rounded(.down)
        let civil = CivilTime(unixSeconds: Int64(whole))
        let fraction = seconds - whole
        if fraction == 0 { return civil.iso8601 }
        let milliseconds = Int((fraction * 1000).rounded())
        return String(civil.iso8601.dropLast()) + ".\(civil.pad(min(milliseconds, 999), 3))Z"
    }
}

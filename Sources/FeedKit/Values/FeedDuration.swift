import Foundation

/// A length of time written in feeds.yaml as a number and a unit: `500ms`, `30s`, `10m`, `2h`, `1d`.
///
/// A bare number is seconds. Units may be combined: `1h30m`.
public struct FeedDuration: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    /// The length in milliseconds.
    public var milliseconds: Int64

    /// A duration of `milliseconds`.
    public init(milliseconds: Int64) { self.milliseconds = milliseconds }

    /// A duration of `value` milliseconds.
    public static func milliseconds(_ value: Int64) -> FeedDuration { FeedDuration(milliseconds: value) }
    /// A duration of `value` seconds.
    public static func seconds(_ value: Int64) -> FeedDuration { FeedDuration(milliseconds: value * 1000) }
    /// A duration of `value` minutes.
    public static func minutes(_ value: Int64) -> FeedDuration { .seconds(value * 60) }
    /// A duration of `value` hours.
    public static func hours(_ value: Int64) -> FeedDuration { .minutes(value * 60) }
    /// A duration of `value` days of 24 hours.
    public static func days(_ value: Int64) -> FeedDuration { .hours(value * 24) }

    /// The length in seconds.
    public var seconds: TimeInterval { TimeInterval(milliseconds) / 1000 }

    /// Parses `30s`, `10m`, `1d`, `1h30m`, `250ms` or a bare number of seconds.
    ///
    /// - Returns: `nil` when `text` is not a duration.
    public init?(parsing text: String) {
        let trimmed = text.trimmingSpaces
        if let seconds = Int64(trimmed), seconds >= 0 {
            let (milliseconds, overflow) = seconds.multipliedReportingOverflow(by: 1000)
            guard !overflow else { return nil }
            self.init(milliseconds: milliseconds)
            return
        }
        var total: Int64 = 0
        var rest = Substring(trimmed)
        guard !rest.isEmpty else { return nil }
        while !rest.isEmpty {
            let digits = rest.prefix { $0.isASCII && $0.isNumber }
            guard !digits.isEmpty, let number = Int64(digits) else { return nil }
            rest = rest.dropFirst(digits.count)
            let unit = rest.prefix { $0.isASCII && $0.isLetter }
            rest = rest.dropFirst(unit.count)
            let factor: Int64
            switch unit {
            case "ms": factor = 1
            case "s": factor = 1000
            case "m": factor = 60_000
            case "h": factor = 3_600_000
            case "d": factor = 86_400_000
            case "w": factor = 604_800_000
            default: return nil
            }
            let (product, overflow) = number.multipliedReportingOverflow(by: factor)
            guard !overflow else { return nil }
            let (sum, sumOverflow) = total.addingReportingOverflow(product)
            guard !sumOverflow else { return nil }
            total = sum
        }
        self.init(milliseconds: total)
    }

    /// Reads a YAML number of seconds or a string such as `10m`; anything else is a decoding error.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let seconds = try? container.decode(Int64.self) {
            let (milliseconds, overflow) = seconds.multipliedReportingOverflow(by: 1000)
            guard !overflow else {
                throw DecodingError.dataCorruptedError(
                    in: container, debugDescription: "\(seconds) seconds is too long a duration")
            }
            self.init(milliseconds: milliseconds)
            return
        }
        let text = try container.decode(String.self)
        guard let duration = FeedDuration(parsing: text) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "'\(text)' is not a duration (use e.g. 500ms, 30s, 10m, 2h, 1d)")
        }
        self = duration
    }

    /// Writes the duration's shortest spelling (``description``), which decoding reads back.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }

    /// Whether `lhs` is shorter.
    public static func < (lhs: FeedDuration, rhs: FeedDuration) -> Bool { lhs.milliseconds < rhs.milliseconds }

    /// The shortest exact spelling: `1d`, `90m`, `30s`, `250ms`.
    public var description: String {
        for (unit, size) in [("d", Int64(86_400_000)), ("h", 3_600_000), ("m", 60_000), ("s", 1000)]
        where milliseconds >= size && milliseconds % size == 0 {
            return "\(milliseconds / size)\(unit)"
        }
        return "\(milliseconds)ms"
    }
}

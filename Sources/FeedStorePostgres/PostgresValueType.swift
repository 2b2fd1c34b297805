import FeedKit
import FeedStore
import Foundation

/// How the text of a PostgreSQL result column reads back as the value the SQLite store holds.
enum PostgresValueType {
    case integer, real, boolean, timestamp, json, text

    /// The reading of the type numbered `oid` (PostgreSQL's `pg_type.oid`).
    init(oid: UInt32) {
        switch oid {
        case 20, 21, 23, 26: self = .integer  // int8, int2, int4, oid
        case 700, 701: self = .real  // float4, float8
        case 16: self = .boolean
        case 1184, 1114: self = .timestamp  // timestamptz, timestamp
        case 3802, 114: self = .json  // jsonb, json
        default: self = .text  // text, numeric (exact digits), jsonb, ...
        }
    }

    /// `value` as the text of a parameter; `nil` for NULL.
    static func parameter(_ value: FieldValue) -> String? {
        switch value {
        case .null: nil
        case .integer(let number): String(number)
        case .real(let number): String(number)
        case .text(let text): text
        case .bool(let flag): flag ? "true" : "false"
        }
    }

    /// `text` (`nil` for NULL) as a value.
    func value(_ text: String?) -> FieldValue {
        guard let text else { return .null }
        switch self {
        case .integer: return Int64(text).map { .integer($0) } ?? .text(text)
        case .real: return Double(text).map { .real($0) } ?? .text(text)
        case .boolean: return .integer(text == "t" ? 1 : 0)
        case .timestamp: return .text(Self.iso8601(text))
        case .json: return .text(Self.compact(text))
        case .text: return .text(text)
        }
    }

    /// JSON text without the spaces `jsonb` prints after `,` and `:` (strings kept as they
    /// are), as the SQLite store holds the JSON it was given.
    static func compact(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        var inString = false
        var escaped = false
        for character in text {
            if inString {
                if escaped {
                    escaped = false
                } else if character == "\\" {
                    escaped = true
                } else if character == "\"" {
                    inString = false
                }
                result.append(character)
            } else if character == "\"" {
                inString = true
                result.append(character)
            } else if !character.isWhitespace {
                result.append(character)
            }
        }
        return result
    }

    /// PostgreSQL's ISO output of a timestamp in UTC (`2026-01-10 10:10:00.25+00`) as the
    /// store's text (`2026-01-10T10:10:00.250Z`; `2026-01-10T10:10:00Z` for whole seconds; a
    /// finer fraction to the microsecond, `2026-01-10T10:10:00.1235Z`).
    static func iso8601(_ text: String) -> String {
        var body = Substring(text)
        if let zone = body.lastIndex(where: { $0 == "+" || $0 == "-" }),
            zone > body.index(body.startIndex, offsetBy: 10)
        {
            body = body[..<zone]
        }
        let parts = body.split(separator: " ", maxSplits: 1)
        guard parts.count == 2 else { return text }
        let time = parts[1].split(separator: ".", maxSplits: 1)
        guard time.count == 2 else { return "\(parts[0])T\(time[0])Z" }
        let fraction = String(time[1].prefix(6))
        let digits = fraction.count < 3 ? fraction.padding(toLength: 3, withPad: "0", startingAt: 0) : fraction
        return "\(parts[0])T\(time[0]).\(digits)Z"
    }
}

/// Values read from PostgreSQL's text form back into Feedwork's ``FieldValue`` (they are sent
/// as ``PostgresCopyText`` gives them).
enum PostgresValue {
    /// A column's text read back as the value SQLite would give for a column of `type`:
    /// booleans as 1 and 0, exact decimals, timestamps (selected as ISO 8601) and JSON as text.
    static func field(_ text: String?, type: ColumnType) -> FieldValue {
        guard let text else { return .null }
        switch type {
        case .integer: return Int64(text).map(FieldValue.integer) ?? .text(text)
        case .real: return Double(text).map(FieldValue.real) ?? .text(text)
        case .boolean: return .integer(text == "t" ? 1 : 0)
        case .text, .decimal, .timestamp, .date, .json: return .text(text)
        }
    }
}

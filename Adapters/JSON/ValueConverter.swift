import FeedKit
import Foundation

/// Why a JSON value could not become a column value; the record is rejected with this reason.
struct ConversionFailure: Error, Sendable {
    var reason: String
}

/// How one JSON value becomes one column value: the declared type, then the transforms.
///
/// Built once per field when the feed is loaded; ``convert(_:)`` runs for every record, so it
/// avoids work that does not depend on the value.
struct ValueConverter: Sendable {
    enum Kind: Sendable, Hashable {
        case int, decimal, double, string, bool, json
        case timestamp(TimestampFormat)
        /// A calendar date, `YYYY-MM-DD` as stored; the format has no time fields.
        case date(TimestampFormat)
        /// Minor units of a currency with `exponent` decimals.
        case money(currency: String, exponent: Int)
    }

    enum StringTransform: String, Sendable, CaseIterable {
        case trim, lowercase, uppercase
    }

    /// A unit change: multiply by, or divide by, an exact factor.
    struct Scale: Sendable, Hashable {
        var factor: Decimal
        var divides: Bool
        /// `n` when the factor is `10^n`: then the change only moves the decimal point, and a
        /// decimal keeps its written digits (`1250` cents divided by 100 are `12.50`).
        var powerOfTen: Int?
    }

    let kind: Kind
    var transforms: [StringTransform] = []
    var scale: Scale?
    /// Whether values arrive as text (XML and CSV, where every value is a string): `int` and
    /// `double` then read numeric strings, and `bool` reads `true`, `false`, `1` and `0`.
    var readsText = false
    /// `bool`: the texts read as true and as false (`true: [Y]`, `false: [N]`).
    var trueTexts: [String] = []
    var falseTexts: [String] = []
    /// `int` and `double`: numeric strings are read as numbers (`from_string: true`).
    var fromString = false
    /// `map:`: the stored value of each listed value, by its text; other values are rejected.
    var map: [String: FieldValue]?
    /// `map:`'s values in their declared order, for messages.
    var mapKeys: [String] = []
    /// `null_values:`: texts that stand for null.
    var nullTexts: Set<String> = []

    /// The ISO 4217 currency of a money field, whose column holds minor units.
    var currency: String? {
        if case .money(let currency, _) = kind { return currency }
        return nil
    }

    var columnType: ColumnType {
        switch kind {
        case .int, .money: .integer
        case .decimal: .decimal
        case .double: .real
        case .string: .text
        case .bool: .boolean
        case .json: .json
        case .timestamp: .timestamp
        case .date: .date
        }
    }

    /// Whether `value` is one of the field's `null_values`.
    func readsAsNull(_ value: JSONValue) -> Bool {
        guard !nullTexts.isEmpty, let text = Self.text(of: value) else { return false }
        return nullTexts.contains(text)
    }

    /// A scalar's text as `map:`, `null_values:` and the `true:`/`false:` lists compare it: a
    /// string's own text, a number as written, `true` or `false`.
    static func text(of value: JSONValue) -> String? {
        switch value {
        case .string(let text): text
        case .number(let text): text
        case .bool(let flag): flag ? "true" : "false"
        default: nil
        }
    }

    /// `value` (not null) as a column value: through `map:` when the field has one.
    func convert(_ value: JSONValue) throws(ConversionFailure) -> FieldValue {
        guard let map else { return try convertValue(value) }
        guard let text = Self.text(of: value), let mapped = map[text] else {
            let listed =
                mapKeys.count > 8
                ? mapKeys.prefix(8).joined(separator: ", ") + ", ..." : mapKeys.joined(separator: ", ")
            throw ConversionFailure(reason: "\(Self.shown(value)) is not listed in map (\(listed))")
        }
        return mapped
    }

    /// `value` (not null) converted to the field's type.
    private func convertValue(_ value: JSONValue) throws(ConversionFailure) -> FieldValue {
        if readsText, case .string(let text) = value, let typed = typed(text) { return try convertValue(typed) }
        switch kind {
        case .int:
            let text: String
            switch value {
            case .number(let number): text = number
            case .string(let string) where fromString:
                text = string.trimmingSpaces
                guard ExactDecimal(text) != nil else {
                    throw ConversionFailure(reason: "expected a whole number (from_string), found \(Self.shown(value))")
                }
            default: throw mismatch("a whole number", value)
            }
            if scale == nil, let number = Int64(text) { return .integer(number) }
            guard let exact = scaled(text), let number = exact.int64Value else {
                throw ConversionFailure(reason: "expected a whole number, found \(text)\(scaleNote)")
            }
            return .integer(number)
        case .decimal:
            let text = try numberText(value, expecting: "a decimal number")
            if scale == nil, let normal = Self.normalDecimal(text) { return .text(normal) }
            guard let exact = scaled(text) else { throw ConversionFailure(reason: "'\(text)' is not a decimal number") }
            return .text(exact.normalized)
        case .double:
            var text = value.numberText
            if fromString, case .string(let string) = value {
                text = string.trimmingSpaces
                guard ExactDecimal(text ?? "") != nil else {
                    throw ConversionFailure(reason: "expected a number (from_string), found \(Self.shown(value))")
                }
            }
            guard let text, var number = Double(text) else { throw mismatch("a number", value) }
            if let scale {
                let factor = NSDecimalNumber(decimal: scale.factor).doubleValue
                number = scale.divides ? number / factor : number * factor
            }
            return .real(number)
        case .string:
            var text: String
            switch value {
            case .string(let string): text = string
            case .number(let number): text = number
            default: throw mismatch("a string", value)
            }
            for transform in transforms {
                switch transform {
                case .trim: text = text.trimmingCharacters(in: .whitespacesAndNewlines)
                case .lowercase: text = text.lowercased()
                case .uppercase: text = text.uppercased()
                }
            }
            return .text(text)
        case .bool:
            if case .bool(let flag) = value { return .bool(flag) }
            guard !trueTexts.isEmpty || !falseTexts.isEmpty else { throw mismatch("true or false", value) }
            if let text = Self.text(of: value) {
                if trueTexts.contains(text) { return .bool(true) }
                if falseTexts.contains(text) { return .bool(false) }
            }
            let lists = [("true", trueTexts), ("false", falseTexts)].filter { !$0.1.isEmpty }
                .map { "\($0.0): \($0.1.joined(separator: ", "))" }.joined(separator: "; ")
            throw ConversionFailure(reason: "expected true or false (or \(lists)), found \(Self.shown(value))")
        case .json:
            return .text(value.jsonText)
        case .timestamp(let format):
            guard let timestamp = format.normalize(value) else {
                let shown = value.stringValue.map { "'\($0)'" } ?? value.numberText ?? value.kindName
                throw ConversionFailure(reason: "expected a timestamp (\(format.name)), found \(shown)")
            }
            return .text(timestamp)
        case .date(let format):
            guard case .string(let text) = value else { throw mismatch("a date (\(format.dateName))", value) }
            guard let date = format.date(text) else {
                throw ConversionFailure(
                    reason: "expected a date (\(format.dateName)), found '\(text)'\(format.dateNote(text))")
            }
            return .text(date)
        case .money(let currency, let exponent):
            let text = try numberText(value, expecting: "an amount")
            guard let exact = ExactDecimal(text) else { throw ConversionFailure(reason: "'\(text)' is not an amount") }
            guard let minor = exact.minorUnits(scale: exponent) else {
                throw ConversionFailure(
                    reason: "\(text) has more than \(exponent) decimals for \(currency), or is too large")
            }
            return .integer(minor)
        }
    }

    /// Text as the JSON value it stands for in a text format, when the kind reads one: a number
    /// for `int` and `double`, a boolean for `bool`.
    private func typed(_ text: String) -> JSONValue? {
        switch kind {
        case .int, .double:
            let number = text.trimmingSpaces
            return ExactDecimal(number) != nil ? .number(number) : nil
        case .bool:
            switch text.trimmingSpaces.lowercased() {
            case "true", "1": return .bool(true)
            case "false", "0": return .bool(false)
            default: return nil
            }
        default: return nil
        }
    }

    /// Converts a YAML `default:` (checked when the feed is loaded).
    func convert(defaultText text: String) throws(ConversionFailure) -> FieldValue {
        switch kind {
        case .string, .timestamp, .date:
            return try convertValue(.string(text))
        case .bool:
            switch text.lowercased() {
            case "true", "yes": return .bool(true)
            case "false", "no": return .bool(false)
            default: throw ConversionFailure(reason: "expected true or false, found '\(text)'")
            }
        case .json:
            do {
                return .text(try JSONParser.parse(text).jsonText)
            } catch {
                return .text(JSONValue.string(text).jsonText)
            }
        case .int, .decimal, .double, .money:
            guard ExactDecimal(text) != nil else {
                throw ConversionFailure(reason: "expected a number, found '\(text)'")
            }
            return try convertValue(.number(text))
        }
    }

    /// A number's text; `decimal` and `money` also accept numeric strings (`"19.99"`), which APIs
    /// use to keep amounts exact.
    private func numberText(_ value: JSONValue, expecting what: String) throws(ConversionFailure) -> String {
        switch value {
        case .number(let text): return text
        case .string(let text) where ExactDecimal(text.trimmingSpaces) != nil:
            return text.trimmingSpaces
        default: throw mismatch(what, value)
        }
    }

    private func scaled(_ text: String) -> ExactDecimal? {
        guard let exact = ExactDecimal(text) else { return nil }
        guard let scale else { return exact }
        if let power = scale.powerOfTen { return exact.shifted(by: scale.divides ? -power : power) }
        guard let decimal = exact.decimal else { return nil }
        let result = scale.divides ? decimal / scale.factor : decimal * scale.factor
        return ExactDecimal(result.description)
    }

    private var scaleNote: String {
        guard let scale else { return "" }
        return " (after \(scale.divides ? "dividing" : "multiplying") by \(scale.factor))"
    }

    private func mismatch(_ expected: String, _ value: JSONValue) -> ConversionFailure {
        ConversionFailure(reason: "expected \(expected), found \(Self.shown(value))")
    }

    /// `value` for a message: its kind, and its text when it is a string or a number.
    static func shown(_ value: JSONValue) -> String {
        var found = value.kindName
        switch value {
        case .string(let text): found += " '\(text.count > 40 ? text.prefix(40) + "..." : text)'"
        case .number(let text): found += " \(text)"
        default: break
        }
        return found
    }

    /// `text` when it is already in the stored form of a decimal (``ExactDecimal/normalized``:
    /// no exponent, no `+`, no leading zero, no negative zero), which is the common case and
    /// needs no parsing.
    static func normalDecimal(_ text: String) -> String? {
        var text = text
        let normal = text.withUTF8 { bytes -> Bool in
            guard let last = bytes.last, !bytes.isEmpty, last != UInt8(ascii: ".") else { return false }
            var points = 0
            for byte in bytes {
                if byte == UInt8(ascii: ".") {
                    points += 1
                } else if !(0x30...0x39).contains(byte) && byte != UInt8(ascii: "-") {
                    return false
                }
            }
            let start = bytes[0] == UInt8(ascii: "-") ? 1 : 0
            guard points <= 1, start < bytes.count, (0x30...0x39).contains(bytes[start]),
                !bytes[(start + 1)...].contains(UInt8(ascii: "-"))
            else { return false }
            // "-0...", "007" and "0" followed by a digit need the slow path; "0.5" and "0" do not.
            if bytes[start] == 0x30 {
                if start == 1 { return false }
                if bytes.count > 1, bytes[1] != UInt8(ascii: ".") { return false }
            }
            return true
        }
        return normal ? text : nil
    }
}

extension TimestampFormat {
    /// The format's name for messages.
    var name: String {
        switch self {
        case .iso8601: "ISO 8601"
        case .unixSeconds: "unix seconds"
        case .unixMilliseconds: "unix milliseconds"
        case .pattern(let tokens):
            tokens.map { token -> String in
                switch token {
                case .literal(let character): String(character)
                case .year: "yyyy"
                case .month: "MM"
                case .day: "dd"
                case .hour: "HH"
                case .minute: "mm"
                case .second: "ss"
                }
            }.joined()
        }
    }
}

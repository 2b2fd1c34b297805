import Foundation

/// A decimal number parsed from text with no rounding: `19.99`, `-0.5`, `1.2345e-5`.
///
/// Used on the way from a JSON number to minor units or to a stored decimal string, so money
/// never passes through binary floating point.
///
/// Two decimals are equal when they denote the same value (`12.50 == 12.5`), but each keeps
/// its ``scale``, the number of decimals it was written with, because that is data too (a
/// price has two decimals): ``normalized`` writes it back with them.
public struct ExactDecimal: Sendable, Hashable, CustomStringConvertible {
    /// Whether the number is below zero; zero is never negative, whatever its sign as written.
    public let isNegative: Bool
    /// The digits without leading or trailing zeros (`"0"` for zero).
    public let digits: String
    /// The power of ten the digits are multiplied by.
    public let exponent: Int
    /// The number of decimals as written, once an exponent is applied (`12.50`: 2, `1.5e3`: 0,
    /// `1.50e-1`: 3); never negative.
    public let scale: Int

    /// Parses a JSON-style number (`-12.50`, `3e2`, `1.2E-5`); `nil` for anything else.
    public init?(_ text: String) {
        var rest = Substring(text)
        var negative = false
        if rest.first == "-" {
            negative = true
            rest = rest.dropFirst()
        } else if rest.first == "+" {
            rest = rest.dropFirst()
        }
        var exponent = 0
        if let e = rest.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            guard let value = Int(rest[rest.index(after: e)...]), abs(value) < 10_000 else { return nil }
            exponent = value
            rest = rest[..<e]
        }
        let parts = rest.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let whole = parts[0]
        let fraction = parts.count > 1 ? parts[1] : ""
        guard !(whole.isEmpty && fraction.isEmpty), (whole + fraction).allSatisfy({ $0.isASCII && $0.isNumber }),
            parts.count == 1 || !fraction.isEmpty
        else { return nil }
        let scale = max(0, fraction.count - exponent)
        var all = String(whole + fraction)
        exponent -= fraction.count
        while all.count > 1, all.first == "0" { all.removeFirst() }
        // Drop trailing zeros into the exponent, so 1.50 and 1.5 are equal.
        while all.count > 1, all.last == "0" {
            all.removeLast()
            exponent += 1
        }
        if all == "0" { exponent = 0 }
        self.init(isNegative: negative && all != "0", digits: all, exponent: exponent, scale: scale)
    }

    private init(isNegative: Bool, digits: String, exponent: Int, scale: Int) {
        self.isNegative = isNegative
        self.digits = digits
        self.exponent = exponent
        self.scale = scale
    }

    /// The same value as `self × 10^places`, exactly, its scale moved with it: `12.5` shifted
    /// by `-2` is `0.125`, `1250` shifted by `-2` is `12.50`.
    public func shifted(by places: Int) -> ExactDecimal {
        guard digits != "0" else {
            return ExactDecimal(isNegative: false, digits: "0", exponent: 0, scale: max(0, scale - places))
        }
        return ExactDecimal(
            isNegative: isNegative, digits: digits, exponent: exponent + places, scale: max(0, scale - places))
    }

    /// Whether both denote the same value, whatever their scales (`12.50 == 12.5`).
    public static func == (a: ExactDecimal, b: ExactDecimal) -> Bool {
        a.isNegative == b.isNegative && a.digits == b.digits && a.exponent == b.exponent
    }

    /// Hashes the value alone, so that equal decimals of different scales hash alike.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(isNegative)
        hasher.combine(digits)
        hasher.combine(exponent)
    }

    /// The value as an integer count of `10^-scale` units (`minorUnits(scale: 2)` of 19.99 is
    /// 1999), or `nil` when it has more decimals than `scale` or does not fit.
    public func minorUnits(scale: Int) -> Int64? {
        let shift = exponent + scale
        guard shift >= 0, digits.count + shift <= 18 else { return digits == "0" ? 0 : nil }
        guard let base = Int64(digits) else { return nil }
        var value = base
        for _ in 0..<shift { value *= 10 }
        return isNegative ? -value : value
    }

    /// The value when it is a whole number that fits in `Int64`.
    public var int64Value: Int64? { minorUnits(scale: 0) }

    /// Plain decimal notation with no exponent and no trailing zeros: `0.000012`, `1500`.
    public var description: String { plain(decimals: max(0, -exponent)) }

    /// The number as written, in one normal form: plain notation with exactly ``scale``
    /// decimals (trailing zeros kept: `12.50`, `0.00`), no exponent (`1.5e3` is `1500`,
    /// `1.50e-1` is `0.150`), no `+`, no leading zeros but one before the point (`007.5` is
    /// `7.5`, `.5` is `0.5`), and no sign on zero (`-0.00` is `0.00`). This is how decimal
    /// columns are stored and exported.
    public var normalized: String { plain(decimals: scale) }

    /// Plain notation with `decimals` decimals, at least the value's own.
    private func plain(decimals: Int) -> String {
        var text: String
        if exponent >= 0 {
            text = digits + String(repeating: "0", count: digits == "0" ? 0 : exponent)
        } else {
            let places = -exponent
            if digits.count > places {
                let split = digits.index(digits.endIndex, offsetBy: -places)
                text = digits[..<split] + "." + digits[split...]
            } else {
                text = "0." + String(repeating: "0", count: places - digits.count) + digits
            }
        }
        let shown = max(0, -exponent)
        if decimals > shown {
            text += (shown == 0 ? "." : "") + String(repeating: "0", count: decimals - shown)
        }
        if isNegative { text = "-" + text }
        return text
    }

    /// The value as a Foundation `Decimal` (exact for up to 38 significant digits).
    ///
    /// Parsed without a locale: `Decimal(string:)` then reads `.` as the decimal point, as
    /// ``description`` writes it, where naming `en_US_POSIX` would load ICU's locale and number
    /// formats for its separator (once per process, on the way of every config load).
    public var decimal: Decimal? { Decimal(string: description) }
}

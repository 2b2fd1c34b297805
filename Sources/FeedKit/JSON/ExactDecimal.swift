import Foundation

/// A decimal number parsed from text with no rounding: `19.99`, `-0.5`, `1.2345e-5`.
///
/// Used on the way from a JSON number to minor units or to a stored decimal string, so money
/// never passes through binary floating point.
public struct ExactDecimal: Sendable, Hashable, CustomStringConvertible {
    public let isNegative: Bool
    /// The digits without leading zeros (`"0"` for zero).
    public let digits: String
    /// The power of ten the digits are multiplied by.
    public let exponent: Int

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
        var all = String(whole + fraction)
        exponent -= fraction.count
        while all.count > 1, all.first == "0" { all.removeFirst() }
        // Drop trailing zeros into the exponent, so 1.50 and 1.5 are equal.
        while all.count > 1, all.last == "0" {
            all.removeLast()
            exponent += 1
        }
        if all == "0" { exponent = 0 }
        self.isNegative = negative && all != "0"
        self.digits = all
        self.exponent = exponent
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
    public var description: String {
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
        if isNegative { text = "-" + text }
        return text
    }

    /// The value as a Foundation `Decimal` (exact for up to 38 significant digits).
    public var decimal: Decimal? { Decimal(string: description, locale: Locale(identifier: "en_US_POSIX")) }
}

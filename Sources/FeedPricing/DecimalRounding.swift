import FeedKit
import Foundation

/// Rounding and fixed-point text of `Decimal` amounts, for money.
public enum DecimalRounding {
    /// `value` rounded to `places` decimals, half away from zero (`.plain`: 1.005 -> 1.01).
    public static func rounded(_ value: Decimal, places: Int) -> Decimal {
        var input = value
        var output = Decimal()
        NSDecimalRound(&output, &input, places, .plain)
        return output
    }

    /// `value` rounded to `places` decimals and written with exactly that many: `1.90`, `412`, `0.490`.
    public static func fixed(_ value: Decimal, places: Int) -> String {
        let rounded = rounded(value, places: places)
        guard let exact = ExactDecimal(rounded.description) else { return rounded.description }
        var text = exact.description
        if places > 0 {
            let decimals = text.split(separator: ".", maxSplits: 1).dropFirst().first?.count ?? 0
            if decimals == 0 { text += "." }
            text += String(repeating: "0", count: max(0, places - decimals))
        }
        return text
    }

    /// `value` in plain decimal notation with no trailing zeros: `1.19236`, `0.00001`.
    public static func plain(_ value: Decimal) -> String {
        ExactDecimal(value.description)?.description ?? value.description
    }

    /// The exact `Decimal` of a decimal string (`"0.917215"`, `"1e-5"`), or `nil`.
    public static func decimal(_ text: String) -> Decimal? { ExactDecimal(text)?.decimal }
}

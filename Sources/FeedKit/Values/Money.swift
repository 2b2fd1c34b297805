/// Money helpers: minor units and the ISO 4217 exponents of currencies.
public enum Money {
    /// ISO 4217 minor-unit exponents that differ from 2.
    static let exponents: [String: Int] = [
        "BHD": 3, "IQD": 3, "JOD": 3, "KWD": 3, "LYD": 3, "OMR": 3, "TND": 3,
        "BIF": 0, "CLP": 0, "DJF": 0, "GNF": 0, "ISK": 0, "JPY": 0, "KMF": 0, "KRW": 0, "PYG": 0, "RWF": 0,
        "UGX": 0, "UYI": 0, "VND": 0, "VUV": 0, "XAF": 0, "XOF": 0, "XPF": 0,
        "CLF": 4, "UYW": 4,
    ]

    /// Whether `code` has the shape of an ISO 4217 code: three ASCII letters.
    public static func isCurrencyCode(_ code: String) -> Bool {
        code.count == 3 && code.allSatisfy { $0.isASCII && $0.isLetter }
    }

    /// A currency option of a feed, upper-cased: `value`, or `defaultCode` when it is absent.
    ///
    /// - Throws: ``OptionError`` at `path` when it is not a three-letter code.
    public static func currencyOption(_ value: String?, default defaultCode: String, at path: [String])
        throws(OptionError)
        -> String
    {
        let code = (value ?? defaultCode).uppercased()
        guard isCurrencyCode(code) else {
            throw OptionError("currency must be a three-letter ISO 4217 code, not '\(value ?? "")'", at: path)
        }
        return code
    }

    /// The number of decimals of `currency`'s minor unit (2 unless ISO 4217 says otherwise).
    public static func exponent(of currency: String) -> Int { exponents[currency.uppercased()] ?? 2 }

    static let symbols: [String: String] = ["GBP": "£", "EUR": "€", "USD": "$", "JPY": "¥"]

    /// `£1.49` for 149 GBP minor units; `1.49 CHF` for a currency without a known symbol.
    public static func display(minorUnits: Int64, currency: String) -> String {
        let exponent = exponent(of: currency)
        // Written with `exponent` decimals: 100 minor units of GBP are 1.00.
        let amount = ExactDecimal("\(minorUnits)e-\(exponent)")?.normalized ?? String(minorUnits)
        if let symbol = symbols[currency.uppercased()] {
            return amount.hasPrefix("-") ? "-" + symbol + amount.dropFirst() : symbol + amount
        }
        return "\(amount) \(currency)"
    }
}

/// Three-letter currency codes as the rates API and ISO 4217 write them.
public enum CurrencyCode {
    /// `code` upper-cased when it is three ASCII letters, else `nil`.
    public static func normalized(_ code: String) -> String? {
        let upper = code.uppercased()
        guard upper.count == 3, upper.allSatisfy({ $0.isASCII && $0.isUppercase }) else { return nil }
        return upper
    }
}

import FeedKit
import Foundation

/// One stored rate: how many units of `target` one unit of `source` buys, as of a time.
public struct ExchangeQuote: Sendable, Hashable {
    public var source: String
    public var target: String
    /// Exact, as stored (`"0.917215"`).
    public var rate: Decimal
    /// When the API quoted the rate (ISO 8601 UTC).
    public var asOf: String
    /// The feed that stored it, if any.
    public var feed: String?

    public init(source: String, target: String, rate: Decimal, asOf: String, feed: String? = nil) {
        self.source = source
        self.target = target
        self.rate = rate
        self.asOf = asOf
        self.feed = feed
    }

    /// The quote of a currency in itself: rate 1, no time.
    public static func identity(_ currency: String) -> ExchangeQuote {
        ExchangeQuote(source: currency, target: currency, rate: 1, asOf: "")
    }

    public var isIdentity: Bool { source == target }

    /// How old the quote is at `now`, in seconds, or `nil` for the identity or an unreadable time.
    public func age(at now: Date) -> TimeInterval? {
        guard !isIdentity, let seconds = ISO8601.parse(asOf) else { return nil }
        return now.timeIntervalSince1970 - seconds
    }
}

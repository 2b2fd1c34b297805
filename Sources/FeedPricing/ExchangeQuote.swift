import FeedKit
import Foundation

/// One stored rate: how many units of `target` one unit of `source` buys, as of a time; or a
/// rate through a third currency that quotes both (``Cross``).
public struct ExchangeQuote: Sendable, Hashable {
    /// A rate from `source` to `target` through `base`, from two stored rates of one feed and one
    /// time: base -> source and base -> target. The rate is their quotient, which is seldom a
    /// finite decimal, so pricing multiplies by ``targetRate`` and divides by ``sourceRate`` as
    /// its last step before rounding (to `Decimal`'s 38 significant digits), rather than
    /// multiplying by a rounded quotient.
    public struct Cross: Sendable, Hashable {
        public var base: String
        /// Units of `source` one `base` buys, exact as stored (`1.0556` USD per EUR).
        public var sourceRate: Decimal
        /// Units of `target` one `base` buys, exact as stored (`0.86753` GBP per EUR).
        public var targetRate: Decimal

        public init(base: String, sourceRate: Decimal, targetRate: Decimal) {
            self.base = base
            self.sourceRate = sourceRate
            self.targetRate = targetRate
        }
    }

    public var source: String
    public var target: String
    /// Exact, as stored (`"0.917215"`); for a cross rate, the quotient to 38 significant digits.
    public var rate: Decimal
    /// When the API quoted the rate (ISO 8601 UTC).
    public var asOf: String
    /// The feed that stored it, if any.
    public var feed: String?
    /// The two stored rates a cross rate comes from; `nil` for a stored rate.
    public var cross: Cross?

    public init(source: String, target: String, rate: Decimal, asOf: String, feed: String? = nil) {
        self.source = source
        self.target = target
        self.rate = rate
        self.asOf = asOf
        self.feed = feed
    }

    /// The rate from `source` to `target` through `cross.base`.
    public init(source: String, target: String, cross: Cross, asOf: String, feed: String? = nil) {
        self.init(source: source, target: target, rate: cross.targetRate / cross.sourceRate, asOf: asOf, feed: feed)
        self.cross = cross
    }

    /// `amount` (in `source`) in `target`: multiplied by the rate, or for a cross rate by the
    /// target rate and then divided by the source rate.
    public func convert(_ amount: Decimal) -> Decimal {
        guard let cross else { return amount * rate }
        return amount * cross.targetRate / cross.sourceRate
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

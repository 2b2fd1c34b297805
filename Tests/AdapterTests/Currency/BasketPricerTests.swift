import CurrencyFeed
import FeedEngine
import FeedFixtures
import FeedKit
import FeedPricing
import Foundation
import Testing

@Suite("Basket pricing")
struct BasketPricerTests {
    func quote(_ target: String, _ rate: String) throws -> ExchangeQuote {
        ExchangeQuote(
            source: "USD", target: target, rate: try #require(DecimalRounding.decimal(rate)),
            asOf: "2019-09-11T16:08:06Z")
    }

    func price(_ tokens: [String], _ target: String, _ rate: String) throws -> PricedBasket {
        try BasketPricer.price(try Basket.parse(arguments: tokens), catalog: .standard, quote: try quote(target, rate))
    }

    @Test func oneMilkAtOnePointFiveIsOneNinetyFiveEuros() throws {
        let priced = try price(["milk"], "EUR", "1.5")
        #expect(priced.totalText == "1.95")
        #expect(priced.total == Decimal(195) / 100)
    }

    @Test func aEuroTotalIsTheExactSumRoundedOnceToCents() throws {
        // 1.30 × 0.908404 = 1.1809252; 2 × 2.10 × 0.908404 = 3.8152968; sum 4.996222.
        let priced = try price(["milk", "eggs=2"], "EUR", "0.908404")
        #expect(priced.lines.map { DecimalRounding.plain($0.exactAmount) } == ["1.1809252", "3.8152968"])
        #expect(DecimalRounding.plain(priced.exactTotal) == "4.996222")
        #expect(priced.totalText == "5.00")
        #expect(priced.exponent == 2)
    }

    @Test func aYenTotalHasNoDecimals() throws {
        // (1.30 + 4.20 + 0.95 + 2.19) × 107.7575 = 8.64 × 107.7575 = 931.0248.
        let priced = try price(["milk", "eggs=2", "peas", "beans=3"], "JPY", "107.7575")
        #expect(priced.exponent == 0)
        #expect(priced.totalText == "931")
    }

    @Test func aBahrainiDinarTotalHasThreeDecimals() throws {
        // 5.50 × 0.377045 = 2.0737475.
        let priced = try price(["milk", "eggs=2"], "BHD", "0.377045")
        #expect(priced.exponent == 3)
        #expect(priced.totalText == "2.074")
        #expect(priced.lines.map(\.displayAmount) == ["0.490", "1.584"])
    }

    @Test func roundingOnceDiffersFromSummingRoundedLines() throws {
        // Each 0.73 × 0.5 = 0.365 shows as 0.37; three lines show 1.11 but the total is 1.095 -> 1.10.
        let catalog = GoodsCatalog(goods: [
            Good(name: "A", price: Decimal(73) / 100, unit: "can"),
            Good(name: "B", price: Decimal(73) / 100, unit: "can"),
            Good(name: "C", price: Decimal(73) / 100, unit: "can"),
        ])
        let priced = try BasketPricer.price(
            try Basket.parse(arguments: ["a", "b", "c"]), catalog: catalog, quote: try quote("EUR", "0.5"))
        #expect(priced.lines.map(\.displayAmount) == ["0.37", "0.37", "0.37"])
        #expect(priced.totalText == "1.10")
        #expect(priced.linesDifferFromTotal)
    }

    @Test func halfAMinorUnitRoundsAwayFromZero() throws {
        // 0.73 × 0.5 = 0.365 -> 0.37 (banker's rounding would give 0.36).
        #expect(try price(["beans"], "EUR", "0.5").totalText == "0.37")
        // 0.95 × 0.5 = 0.475 -> 0.48.
        #expect(try price(["peas"], "EUR", "0.5").totalText == "0.48")
    }

    @Test func pricingInTheCatalogsCurrencyUsesRateOne() throws {
        let priced = try BasketPricer.price(
            try Basket.parse(arguments: ["milk", "eggs=2"]), catalog: .standard, quote: .identity("USD"))
        #expect(priced.totalText == "5.50")
        #expect(priced.quote.isIdentity)
    }

    @Test func unknownGoodsAreNamedWithTheKnownOnes() throws {
        let error = try #require(throws: PricingError.self) { try price(["milk", "kale", "Tofu=2"], "EUR", "1.5") }
        #expect(error == .unknownGoods(["kale", "Tofu"], known: ["Peas", "Eggs", "Milk", "Beans"]))
        #expect(error.description == "unknown goods 'kale', 'Tofu'; known goods: Peas, Eggs, Milk, Beans")
    }

    @Test func anEmptyBasketIsAnError() throws {
        #expect(throws: PricingError.emptyBasket) { try price([], "EUR", "1.5") }
    }

    @Test func aQuoteFromAnotherCurrencyIsRefused() throws {
        let quote = ExchangeQuote(source: "EUR", target: "GBP", rate: 1, asOf: "2019-09-11T16:08:06Z")
        #expect(throws: PricingError.self) {
            try BasketPricer.price(try Basket.parse(arguments: ["milk"]), catalog: .standard, quote: quote)
        }
    }

    @Test func aQuotesAgeIsCountedFromItsAsOf() throws {
        let quote = try quote("EUR", "1.5")
        let later = Date(timeIntervalSince1970: 1_568_218_086 + 3601)
        #expect(quote.age(at: later) == 3601)
        #expect(ExchangeQuote.identity("USD").age(at: later) == nil)
    }
}

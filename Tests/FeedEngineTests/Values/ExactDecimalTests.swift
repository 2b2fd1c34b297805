import FeedKit
import Foundation
import Testing

/// Decimals keep the digits they are written with (the scale is data: a price has two
/// decimals), in one normal form, while comparing by value.
@Suite("ExactDecimal: written scale")
struct ExactDecimalTests {
    @Test(arguments: [
        ("12.50", "12.50"), ("0.00", "0.00"), ("-0.00", "0.00"), ("-0", "0"), ("+1.5", "1.5"), ("007.50", "7.50"),
        (".5", "0.5"), ("1.5e3", "1500"), ("1.50E-1", "0.150"), ("2.5e-3", "0.0025"), ("-12.50", "-12.50"),
        ("100", "100"), ("1e2", "100"),
    ])
    func theNormalFormKeepsTheWrittenDecimals(_ written: String, _ normal: String) throws {
        #expect(try #require(ExactDecimal(written)).normalized == normal)
    }

    @Test func decimalsWithAnotherScaleAreEqualAndHashAlike() throws {
        let a = try #require(ExactDecimal("12.50"))
        let b = try #require(ExactDecimal("12.5"))
        #expect(a == b)
        #expect(Set([a, b]).count == 1)
        #expect(a.description == "12.5")
    }

    /// `decimal` parses without a locale; it reads the same value an explicit POSIX locale does.
    @Test(arguments: ["12.50", "-0.5", "1.2345e-5", "1e2", "0", "-12.50", "99999999999999999999999999999999999999"])
    func theFoundationDecimalIsTheWrittenValue(_ written: String) throws {
        let value = try #require(ExactDecimal(written))
        let posix = Decimal(string: value.description, locale: Locale(identifier: "en_US_POSIX"))
        #expect(value.decimal == posix)
        #expect(value.decimal.map { "\($0)" } == value.description)
    }

    @Test func shiftingMovesThePointAndTheScale() throws {
        #expect(try #require(ExactDecimal("1250")).shifted(by: -2).normalized == "12.50")
        #expect(try #require(ExactDecimal("12.50")).shifted(by: 2).normalized == "1250")
        #expect(try #require(ExactDecimal("0")).shifted(by: -2).normalized == "0.00")
    }
}

import ClassifiedFeed
import FeedEngine
import FeedKit
import FeedTestSupport
import Foundation
import Testing

/// `<entity>_view`: decimals as numbers for SQL, relation labels beside their column.
@Suite("Store: entity views for SQL")
struct EntityViewTests {
    func ratesHarness() throws -> FeedHarness {
        try JSONFeedTest.harness(
            url: "rates.json",
            """
                records: rates
                entity: rate
                key: code
                fields: { code: string, rate: decimal }
            """,
            files: [
                "rates.json": Data(
                    #"{"rates":[{"code":"AED","rate":"3.673103"},{"code":"AFN","rate":"107.7575"},{"code":"EUR","rate":"0.9"}]}"#
                        .utf8)
            ])
    }

    @Test func decimalsCompareAsNumbersInTheView() async throws {
        let harness = try ratesHarness()
        _ = try await harness.run()
        #expect(try harness.rows("SELECT code FROM rate_view WHERE rate > 100") == [["code": .text("AFN")]])
        #expect(
            try harness.rows("SELECT code FROM rate_view ORDER BY rate").map { $0["code"] }
                == [.text("EUR"), .text("AED"), .text("AFN")])
    }

    @Test func theTableKeepsTheExactDigits() async throws {
        let harness = try ratesHarness()
        _ = try await harness.run()
        #expect(try harness.rows("SELECT rate FROM rate WHERE code = 'AED'") == [["rate": .text("3.673103")]])
    }

    @Test func aRelationWithALabelGainsTheLabelColumn() async throws {
        let harness = try ClassifiedFeedFiles.fixtureHarness(listing: "listing.json")
        _ = try await harness.run()
        let rows = try harness.rows("SELECT category_id, category_name FROM classified_view ORDER BY id")
        #expect(!rows.isEmpty)
        for row in rows {
            guard case .integer(let id)? = row["category_id"] else { Issue.record("no category id"); continue }
            let name = try harness.rows("SELECT name FROM category WHERE id = ?", [.integer(id)]).first?["name"]
            #expect(row["category_name"] == name)
        }
    }

    @Test func aViewTheUserWroteIsLeftAlone() async throws {
        let harness = try ratesHarness()
        _ = try await harness.run()
        try harness.execute("DROP VIEW rate_view; CREATE VIEW rate_view AS SELECT 'mine' AS code")
        _ = try await harness.run()
        #expect(try harness.rows("SELECT code FROM rate_view") == [["code": .text("mine")]])
    }

    /// One price in yen (no minor units) and one in pounds (two decimals).
    func pricesHarness() throws -> FeedHarness {
        try JSONFeedTest.harness(
            url: "prices.json",
            """
                records: prices
                entity: price
                key: sku
                fields: { sku: string, amount: { type: money, currency: JPY }, cost: { type: money, currency: GBP } }
            """,
            files: ["prices.json": Data(#"{"prices":[{"sku":"a","amount":1500,"cost":"2.49"}]}"#.utf8)])
    }

    @Test func moneyInMinorUnitsGainsItsAmountAndCurrency() async throws {
        let harness = try pricesHarness()
        _ = try await harness.run()
        #expect(
            try harness.rows(
                "SELECT amount, amount_amount, amount_currency, cost, cost_amount, cost_currency FROM price_view")
                == [
                    [
                        "amount": .integer(1500), "amount_amount": .real(1500), "amount_currency": .text("JPY"),
                        "cost": .integer(249), "cost_amount": .real(2.49), "cost_currency": .text("GBP"),
                    ]
                ])
    }
}

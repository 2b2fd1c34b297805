import ClassifiedFeed
import FeedEngine
import FeedKit
import FeedTestSupport
import Foundation
import Testing

/// `<entity>_view`: decimals as numbers for SQL, relation labels beside their column, on both
/// stores.
@Suite("Store: entity views for SQL")
struct EntityViewTests {
    func ratesHarness(_ driver: HarnessStore) throws -> FeedHarness {
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
            ], driver: driver)
    }

    @Test(arguments: HarnessStore.available)
    func decimalsCompareAsNumbersInTheView(driver: HarnessStore) async throws {
        let harness = try ratesHarness(driver)
        _ = try await harness.run()
        #expect(try await harness.rows("SELECT code FROM rate_view WHERE rate > 100") == [["code": .text("AFN")]])
        #expect(
            try await harness.rows("SELECT code FROM rate_view ORDER BY rate").map { $0["code"] }
                == [.text("EUR"), .text("AED"), .text("AFN")])
    }

    @Test func aViewThatWouldBeWrittenTheSameIsLeftAsItIs() async throws {
        let harness = try ratesHarness(.sqlite)
        _ = try await harness.run()
        // A later object of the schema: a view written again would come after it.
        try await harness.execute("CREATE TABLE later (x)")
        let query = "SELECT rowid, sql FROM sqlite_master WHERE name = 'rate_view'"
        let before = try await harness.rows(query)
        _ = try await harness.run()
        #expect(try await harness.rows(query) == before)
    }

    @Test(arguments: HarnessStore.available)
    func theTableKeepsTheExactDigits(driver: HarnessStore) async throws {
        let harness = try ratesHarness(driver)
        _ = try await harness.run()
        #expect(try await harness.rows("SELECT rate FROM rate WHERE code = 'AED'") == [["rate": .text("3.673103")]])
    }

    @Test(arguments: HarnessStore.available)
    func aRelationWithALabelGainsTheLabelColumn(driver: HarnessStore) async throws {
        let harness = try ClassifiedFeedFiles.fixtureHarness(listing: "listing.json", driver: driver)
        _ = try await harness.run()
        let rows = try await harness.rows("SELECT category_id, category_name FROM classified_view ORDER BY id")
        #expect(!rows.isEmpty)
        for row in rows {
            guard case .integer(let id)? = row["category_id"] else { Issue.record("no category id"); continue }
            let name = try await harness.rows("SELECT name FROM category WHERE id = $1", [.integer(id)]).first?["name"]
            #expect(row["category_name"] == name)
        }
    }

    @Test(arguments: HarnessStore.available)
    func aViewTheUserWroteIsLeftAlone(driver: HarnessStore) async throws {
        let harness = try ratesHarness(driver)
        _ = try await harness.run()
        try await harness.execute("DROP VIEW rate_view; CREATE VIEW rate_view AS SELECT 'mine' AS code")
        _ = try await harness.run()
        #expect(try await harness.rows("SELECT code FROM rate_view") == [["code": .text("mine")]])
    }

    @Test(arguments: HarnessStore.available)
    func theViewFollowsTheSchema(driver: HarnessStore) async throws {
        let harness = try ratesHarness(driver)
        _ = try await harness.run()
        let yaml = try String(contentsOfFile: harness.configPath, encoding: .utf8)
        try harness.setConfig(yaml.replacingOccurrences(of: "rate: decimal }", with: "rate: decimal, note: string }"))
        _ = try await harness.run()
        #expect(
            try await harness.rows("SELECT code, note FROM rate_view WHERE code = 'EUR'")
                == [["code": .text("EUR"), "note": .null]])
    }

    /// The amount is a `REAL` on SQLite and an exact `numeric` on PostgreSQL (read back, as
    /// every decimal, as its digits).
    @Test(arguments: HarnessStore.available)
    func moneyInMinorUnitsGainsItsAmountAndCurrency(driver: HarnessStore) async throws {
        let harness = try JSONFeedTest.harness(
            url: "prices.json",
            """
                records: prices
                entity: price
                key: sku
                fields: { sku: string, amount: { type: money, currency: JPY }, cost: { type: money, currency: GBP } }
            """,
            files: ["prices.json": Data(#"{"prices":[{"sku":"a","amount":1500,"cost":"2.49"}]}"#.utf8)],
            driver: driver)
        _ = try await harness.run()
        let yen: FieldValue = driver == .sqlite ? .real(1500) : .text("1500")
        let pounds: FieldValue = driver == .sqlite ? .real(2.49) : .text("2.49")
        #expect(
            try await harness.rows(
                "SELECT amount, amount_amount, amount_currency, cost, cost_amount, cost_currency FROM price_view")
                == [
                    [
                        "amount": .integer(1500), "amount_amount": yen, "amount_currency": .text("JPY"),
                        "cost": .integer(249), "cost_amount": pounds, "cost_currency": .text("GBP"),
                    ]
                ])
    }
}

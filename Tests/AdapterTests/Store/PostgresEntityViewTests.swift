import FeedKit
import FeedTestSupport
import Foundation
import Testing

@testable import FeedEngine

/// `<entity>_view` on a PostgreSQL store: the assertions of ``EntityViewTests`` (decimals as
/// numbers, relation labels, money amounts, a user's view left alone), on the same feeds run
/// into a schema of the test server (`FEEDWORK_TEST_POSTGRES_URL`).
@Suite("Store: entity views for SQL on PostgreSQL")
struct PostgresEntityViewTests {
    /// Points `harness` at a new schema of the test server and runs `body` with a connection
    /// whose `search_path` is that schema, dropped afterwards. Without a server, says so (a
    /// failure when `CI` is set) and returns.
    static func onPostgres(_ harness: FeedHarness, _ body: (PostgresConnection) async throws -> Void) async throws {
        guard let url = ProcessInfo.processInfo.environment["FEEDWORK_TEST_POSTGRES_URL"] else {
            let message = "FEEDWORK_TEST_POSTGRES_URL is not set: run scripts/postgres-throwaway.sh start"
            if ProcessInfo.processInfo.environment["CI"] != nil { Issue.record(Comment(rawValue: message)) }
            return print("skipped: \(message)")
        }
        let schema = "views_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        let yaml = try String(contentsOfFile: harness.configPath, encoding: .utf8)
        try harness.setConfig("store: \(url)\nschema: \(schema)\n" + yaml)
        let connection = try PostgresConnection(url: url)
        defer { _ = try? connection.execute("DROP SCHEMA IF EXISTS \(schema) CASCADE") }
        try connection.execute("SET search_path TO \(schema)")
        try await body(connection)
    }

    /// The rows of `sql`, each as its columns' text (`nil` for null).
    static func rows(_ sql: String, on connection: PostgresConnection) throws -> [[String?]] {
        let rows = try connection.execute(sql)
        return (0..<rows.count).map { row in rows.columns.indices.map { rows[row, $0] } }
    }

    @Test func decimalsCompareAsNumbersInTheView() async throws {
        let harness = try EntityViewTests().ratesHarness()
        try await Self.onPostgres(harness) { connection in
            _ = try await harness.run()
            #expect(try Self.rows("SELECT code FROM rate_view WHERE rate > 100", on: connection) == [["AFN"]])
            #expect(
                try Self.rows("SELECT code FROM rate_view ORDER BY rate", on: connection) == [
                    ["EUR"], ["AED"], ["AFN"],
                ])
        }
    }

    @Test func theTableKeepsTheExactDigits() async throws {
        let harness = try EntityViewTests().ratesHarness()
        try await Self.onPostgres(harness) { connection in
            _ = try await harness.run()
            #expect(try Self.rows("SELECT rate FROM rate WHERE code = 'AED'", on: connection) == [["3.673103"]])
        }
    }

    @Test func aRelationWithALabelGainsTheLabelColumn() async throws {
        let harness = try ClassifiedFeedFiles.fixtureHarness(listing: "listing.json")
        try await Self.onPostgres(harness) { connection in
            _ = try await harness.run()
            let rows = try Self.rows(
                "SELECT category_id, category_name FROM classified_view ORDER BY id", on: connection)
            #expect(!rows.isEmpty)
            for row in rows {
                let id = try #require(row[0])
                let name = try Self.rows("SELECT name FROM category WHERE id = \(Int(id) ?? -1)", on: connection)
                #expect([row[1]] == name.first)
            }
        }
    }

    @Test func aViewTheUserWroteIsLeftAlone() async throws {
        let harness = try EntityViewTests().ratesHarness()
        try await Self.onPostgres(harness) { connection in
            _ = try await harness.run()
            try connection.execute("DROP VIEW rate_view; CREATE VIEW rate_view AS SELECT 'mine'::text AS code")
            _ = try await harness.run()
            #expect(try Self.rows("SELECT code FROM rate_view", on: connection) == [["mine"]])
        }
    }

    @Test func aViewFeedworkWroteFollowsTheSchema() async throws {
        let harness = try EntityViewTests().ratesHarness()
        try await Self.onPostgres(harness) { connection in
            _ = try await harness.run()
            let yaml = try String(contentsOfFile: harness.configPath, encoding: .utf8)
            try harness.setConfig(
                yaml.replacingOccurrences(of: "rate: decimal }", with: "rate: decimal, note: string }"))
            _ = try await harness.run()
            #expect(
                try Self.rows("SELECT code, note FROM rate_view WHERE code = 'EUR'", on: connection) == [["EUR", nil]])
        }
    }

    @Test func moneyInMinorUnitsGainsItsAmountAndCurrency() async throws {
        let harness = try EntityViewTests().pricesHarness()
        try await Self.onPostgres(harness) { connection in
            _ = try await harness.run()
            #expect(
                try Self.rows(
                    "SELECT amount, amount_amount, amount_currency, cost, cost_amount, cost_currency FROM price_view",
                    on: connection) == [["1500", "1500", "JPY", "249", "2.49", "GBP"]])
        }
    }
}

import FeedEngine
import FeedFixtures
import FeedKit
import FeedTestSupport
import Foundation
import JSONFeed
import Testing

/// Value conversions: `true:`/`false:` lists, `map:`, `null_values:` and `from_string:`.
@Suite("json adapter: value conversions")
struct JSONConversionTests {
    /// Serves `records` under `$.items`, runs a feed with `fields` on `driver`, and returns the
    /// harness, the report and each reject as `path: reason`.
    static func run(_ records: String, fields: String, driver: HarnessStore) async throws -> (
        FeedHarness, FeedReport, [String]
    ) {
        let server = try LoopbackServer { _ in .json(#"{"items":\#(records)}"#) }
        let harness = try JSONFeedTest.harness(
            url: server.url("/items"),
            """
                max_reject_ratio: 1
                records: $.items
                entity: item
                key: id
                fields:
            \(fields)
            """, driver: driver)
        let report = try #require(try await harness.run().feeds.first)
        return await (harness, report, try JSONFeedTest.rejects(harness))
    }

    @Test(arguments: HarnessStore.available)
    func yesAndNoBecomeBooleansAndAnyOtherValueIsRejectedNamingTheLists(driver: HarnessStore) async throws {
        let (harness, report, rejects) = try await Self.run(
            #"[{"id":1,"active":"Y"},{"id":2,"active":"N"},{"id":3,"active":true},{"id":4,"active":"maybe"}]"#,
            fields: """
                      id: int
                      active: { type: bool, true: [Y, yes], false: N }
                """, driver: driver)
        #expect(report.status == .okWithRejects)
        let rows = try await harness.rows("SELECT id, active FROM item ORDER BY id")
        #expect(JSONFeedTest.integers(rows, "active") == [1, 0, 1])
        #expect(
            rejects == ["$.items[3].active: expected true or false (or true: Y, yes; false: N), found a string 'maybe'"]
        )
    }

    @Test(arguments: HarnessStore.available)
    func mapTurnsCodesIntoValuesOfTheFieldsTypeAndRejectsAnUnlistedOne(driver: HarnessStore) async throws {
        let (harness, _, rejects) = try await Self.run(
            #"[{"id":1,"status":"A","level":"low"},{"id":2,"status":"I","level":"high"},{"id":3,"status":"X","level":"low"}]"#,
            fields: """
                      id: int
                      status: { type: string, map: { A: active, I: inactive } }
                      level: { type: int, map: { low: 1, high: 3 } }
                """, driver: driver)
        let rows = try await harness.rows("SELECT status, level FROM item ORDER BY id")
        #expect(JSONFeedTest.texts(rows, "status") == ["active", "inactive"])
        #expect(JSONFeedTest.integers(rows, "level") == [1, 3])
        #expect(rejects == ["$.items[2].status: a string 'X' is not listed in map (A, I)"])
    }

    @Test(arguments: HarnessStore.available)
    func nullValuesAreNullSoDefaultsAndRequiredApply(driver: HarnessStore) async throws {
        let (harness, _, rejects) = try await Self.run(
            #"[{"id":1,"price":"N/A","note":"-"},{"id":2,"price":"","note":"kept"},{"id":3,"price":"2.50","note":""}]"#,
            fields: """
                      id: int
                      price: { type: decimal, null_values: ["", "N/A", "-"], default: 0 }
                      note: { type: string, null_values: ["", "-"], required: true }
                """, driver: driver)
        let rows = try await harness.rows("SELECT id, price, note FROM item ORDER BY id")
        #expect(JSONFeedTest.integers(rows, "id") == [2])
        #expect(rows.first?["price"] == .text("0"))
        #expect(rejects == ["$.items[0].note: note is missing or null", "$.items[2].note: note is missing or null"])
    }

    @Test(arguments: HarnessStore.available)
    func stringIdsReadAsIntsSortNumerically(driver: HarnessStore) async throws {
        let records = "[" + (1...12).reversed().map { #"{"id":"\#($0)","score":" \#($0).5 "}"# }.joined(separator: ",")
        let (harness, report, rejects) = try await Self.run(
            records + #",{"id":"13x","score":"1"}]"#,
            fields: """
                      id: { type: int, from_string: true }
                      score: { type: double, from_string: true }
                """, driver: driver)
        #expect(report.counts.inserted == 12)
        #expect(JSONFeedTest.integers(try await harness.rows("SELECT id FROM item ORDER BY id"), "id") == Array(1...12))
        #expect(try await harness.rows("SELECT score FROM item WHERE id = 10").first?["score"] == .real(10.5))
        #expect(rejects == ["$.items[12].id: expected a whole number (from_string), found a string '13x'"])
    }

    @Test(arguments: HarnessStore.available)
    func withoutFromStringANumericStringIsStillRejected(driver: HarnessStore) async throws {
        let (_, _, rejects) = try await Self.run(
            #"[{"id":1,"count":"2"}]"#, fields: "      id: int\n      count: int", driver: driver)
        #expect(rejects == ["$.items[0].count: expected a whole number, found a string '2'"])
    }

    @Test func conversionOptionsAreCheckedWhereTheyAreWritten() throws {
        let base = """
              - name: items
                adapter: json
                url: https://api.example.com/items
                entity: item
                key: id
                fields:
                  id: int
            """
        let problems = try JSONValidationTests.problems(
            base + """

                      level: { type: int, map: { low: one } }
                      flag: { type: bool, true: [Y], false: [Y] }
                      name: { type: string, true: [Y], from_string: true }
                """)
        #expect(problems.contains { $0.contains("map value 'one' does not fit type int") }, "\(problems)")
        #expect(problems.contains { $0.contains("'Y' is listed in both true and false") }, "\(problems)")
        #expect(problems.contains { $0.contains("unknown key 'true'") }, "\(problems)")
        #expect(problems.contains { $0.contains("unknown key 'from_string'") }, "\(problems)")
    }
}

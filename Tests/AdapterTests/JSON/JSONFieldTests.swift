import FeedEngine
import FeedFixtures
import FeedKit
import FeedTestSupport
import Foundation
import JSONFeed
import Testing

@Suite("json adapter: fields")
struct JSONFieldTests {
    /// Serves `records` (a JSON list) under `$.items` and runs a feed with `fields`.
    static func run(records: String, fields: String, extra: String = "") async throws -> (FeedHarness, FeedReport) {
        let server = try LoopbackServer { _ in .json(#"{"items":\#(records)}"#) }
        let harness = try JSONFeedTest.harness(
            url: server.url("/items"),
            """
                records: $.items
                entity: item
                key: id
            \(extra)
                fields:
            \(fields)
            """)
        let report = try await harness.run()
        return (harness, try #require(report.feeds.first))
    }

    static let record = #"""
        [{"id": 7, "name": "  Gala Apple ", "price": 19.90, "ratio": 0.25, "active": true,
          "updated_at": "2024-03-01T10:15:00+01:00", "meta": {"rank": 3, "source": "api"},
          "cost": {"amount": "12.345", "currency": "EUR"}, "weight_g": 1250, "flags": [1, 2]}]
        """#

    @Test func everyTypeIsStoredAsDeclared() async throws {
        let (harness, feed) = try await Self.run(
            records: Self.record,
            fields: """
                      id: int
                      name: string
                      price: decimal
                      ratio: double
                      active: bool
                      updated_at: timestamp
                      meta: json
                      rank: { path: meta.rank, type: int }
                """)
        #expect(feed.status == .ok)
        let row = try #require(try await harness.rows("SELECT * FROM item").first)
        #expect(row["id"] == .integer(7))
        #expect(row["name"] == .text("  Gala Apple "))
        #expect(row["price"] == .text("19.90"))
        #expect(row["ratio"] == .real(0.25))
        #expect(row["active"] == .integer(1))
        #expect(row["updated_at"] == .text("2024-03-01T09:15:00Z"))
        #expect(row["meta"] == .text(#"{"rank":3,"source":"api"}"#))
        #expect(row["rank"] == .integer(3))
    }

    @Test func columnsFollowTheDeclaredOrder() async throws {
        let (harness, _) = try await Self.run(
            records: Self.record,
            fields: "      name: string\n      rank: { path: meta.rank, type: int }\n      id: int")
        let columns = try await harness.rows(
            "SELECT name FROM pragma_table_info('item') WHERE name NOT LIKE '\\_%' ESCAPE '\\'")
        #expect(JSONFeedTest.texts(columns, "name") == ["name", "rank", "id"])
    }

    @Test func stringTransformsApplyInOrder() async throws {
        let (harness, _) = try await Self.run(
            records: Self.record,
            fields:
                "      id: int\n      name: { type: string, transform: [trim, lowercase] }\n      upper: { path: name, type: string, transform: uppercase }"
        )
        let row = try #require(try await harness.rows("SELECT name, upper FROM item").first)
        #expect(row["name"] == .text("gala apple"))
        #expect(row["upper"] == .text("  GALA APPLE "))
    }

    @Test func defaultsFillMissingAndNullValues() async throws {
        let (harness, _) = try await Self.run(
            records: #"[{"id":1,"note":null},{"id":2}]"#,
            fields:
                "      id: int\n      note: { type: string, default: none }\n      rank: { path: meta.rank, type: int, default: 0 }\n      on: { type: bool, default: true }"
        )
        let rows = try await harness.rows("SELECT note, rank, \"on\" FROM item ORDER BY id")
        #expect(JSONFeedTest.texts(rows, "note") == ["none", "none"])
        #expect(JSONFeedTest.integers(rows, "rank") == [0, 0])
        #expect(JSONFeedTest.integers(rows, "on") == [1, 1])
    }

    @Test func multiplyAndDivideChangeUnitsExactly() async throws {
        let (harness, _) = try await Self.run(
            records: Self.record,
            fields: """
                      id: int
                      weight_kg: { path: weight_g, type: decimal, divide: 1000 }
                      price_cents: { path: price, type: int, multiply: 100 }
                      ratio_pct: { path: ratio, type: double, multiply: 100 }
                """)
        let row = try #require(try await harness.rows("SELECT * FROM item").first)
        #expect(row["weight_kg"] == .text("1.250"))
        #expect(row["price_cents"] == .integer(1990))
        #expect(row["ratio_pct"] == .real(25))
    }

    @Test func moneyBecomesMinorUnitsOfItsCurrency() async throws {
        let (harness, feed) = try await Self.run(
            records: #"[{"id":1,"p":"19.99","y":1500},{"id":2,"p":5,"y":"12"},{"id":3,"p":1.999,"y":1}]"#,
            fields: "      id: int\n      p: { type: money, currency: EUR }\n      y: { type: money, currency: jpy }")
        let rows = try await harness.rows("SELECT p, y FROM item ORDER BY id")
        #expect(JSONFeedTest.integers(rows, "p") == [1999, 500])
        #expect(JSONFeedTest.integers(rows, "y") == [1500, 12])
        #expect(feed.counts.rejected == 1, "1.999 EUR has too many decimals")
    }

    @Test func timestampsAreReadInEachFormatAndStoredAsUTC() async throws {
        let (harness, _) = try await Self.run(
            records: #"[{"id":1,"iso":"2024-01-31","unix":1700000000,"ms":1700000000123,"local":"31/01/2024 13:45"}]"#,
            fields: """
                      id: int
                      iso: { type: timestamp, format: iso8601 }
                      unix: { type: timestamp, format: unix }
                      ms: { type: timestamp, format: unix_ms }
                      local: { type: timestamp, format: "dd/MM/yyyy HH:mm" }
                """)
        let row = try #require(try await harness.rows("SELECT * FROM item").first)
        #expect(row["iso"] == .text("2024-01-31T00:00:00Z"))
        #expect(row["unix"] == .text("2023-11-14T22:13:20Z"))
        #expect(row["ms"] == .text("2023-11-14T22:13:20.123Z"))
        #expect(row["local"] == .text("2024-01-31T13:45:00Z"))
    }

    @Test func undeclaredMembersAreKeptInExtraWhenAsked() async throws {
        let (harness, _) = try await Self.run(
            records: Self.record, fields: "      id: int\n      rank: { path: meta.rank, type: int }",
            extra: "    extra: keep")
        let row = try #require(try await harness.rows("SELECT _extra FROM item").first)
        guard case .text(let text)? = row["_extra"] else {
            Issue.record("no _extra")
            return
        }
        let extra = try JSONParser.parse(text)
        #expect(extra["name"] == .string("  Gala Apple "))
        #expect(extra["meta"] == nil, "meta is declared through meta.rank")
        #expect(extra["id"] == nil)
    }

    @Test func undeclaredMembersAreIgnoredByDefault() async throws {
        let (harness, _) = try await Self.run(records: Self.record, fields: "      id: int")
        let columns = try await harness.rows("SELECT name FROM pragma_table_info('item') WHERE name = '_extra'")
        #expect(columns.isEmpty)
    }

    @Test func aCompositeKeyJoinsItsFields() async throws {
        let server = try LoopbackServer { _ in
            .json(#"{"items":[{"shop":"a","sku":1,"n":1},{"shop":"b","sku":1,"n":2},{"shop":"a","sku":1,"n":3}]}"#)
        }
        let harness = try JSONFeedTest.harness(
            url: server.url("/items"),
            "    records: items\n    entity: stock\n    key: [shop, sku]\n    fields: { shop: string, sku: int, n: int }"
        )
        _ = try await harness.run()
        let rows = try await harness.rows("SELECT _key, n FROM stock ORDER BY _key")
        #expect(JSONFeedTest.texts(rows, "_key") == ["a|1", "b|1"])
        #expect(JSONFeedTest.integers(rows, "n") == [3, 2])
    }

    @Test func aTopLevelListIsSelectedWithDollar() async throws {
        let server = try LoopbackServer { _ in .json(#"[{"id":1},{"id":2}]"#) }
        let harness = try JSONFeedTest.harness(
            url: server.url("/items"), "    records: $\n    entity: item\n    key: id\n    fields: { id: int }")
        _ = try await harness.run()
        #expect(try await harness.count("item") == 2)
    }
}

import FeedEngine
import FeedFixtures
import FeedKit
import FeedTestSupport
import Foundation
import Testing

@testable import JSONFeed

/// `extra: columns`: undeclared members become columns typed from their values, widened when
/// values disagree, and new members found by later passes become new columns.
@Suite("json adapter: extra: columns")
struct JSONAutoColumnsTests {
    /// An API whose records gain a member (`rating`) after the first pass.
    final class GrowingAPI: Sendable {
        let pass = Shared(1)

        func reply(_ request: LoopbackRequest) -> LoopbackReply {
            if pass.value == 1 {
                return .json(
                    #"""
                    {"items":[
                      {"id":1,"name":"a","qty":3,"price":2,"on":"2024-02-29","at":"2024-02-29T10:00:00Z","ok":true,"tags":["x"],"code":7},
                      {"id":2,"name":"b","qty":4,"price":2.50,"on":null,"at":"2024-03-01T00:00:00.5Z","ok":false,"tags":{"k":1},"code":"B7"},
                      {"id":3,"name":"c","qty":null,"price":12345678901234567890.5,"Bad Name":1}
                    ]}
                    """#)
            }
            return .json(
                #"""
                {"items":[
                  {"id":1,"name":"a","qty":5,"price":3,"rating":4.5},
                  {"id":4,"name":"d","qty":6,"price":1,"rating":5}
                ]}
                """#)
        }
    }

    static func harness(_ api: GrowingAPI, schema: String = "", driver: HarnessStore) throws -> (
        FeedHarness, LoopbackServer
    ) {
        let server = try LoopbackServer { api.reply($0) }
        let harness = try JSONFeedTest.harness(
            url: server.url("/items"),
            """
                records: $.items
                entity: item
                key: id
                extra: columns
            \(schema.isEmpty ? "" : "    \(schema)\n")    fields:
                  id: int
                  label: { path: name, type: string }
            """, driver: driver)
        return (harness, server)
    }

    @Test(arguments: HarnessStore.available)
    func undeclaredMembersBecomeTypedColumnsWidenedAndGrownOnLaterPasses(driver: HarnessStore) async throws {
        let api = GrowingAPI()
        let (harness, server) = try Self.harness(api, driver: driver)
        defer { server.stop() }
        let first = try #require(try await harness.run().feeds.first)
        #expect(first.status == .ok, "\(first.error ?? "")")
        #expect(first.counts.inserted == 3)
        let schema = try #require(try await harness.schemas()["item"])
        // Declared fields first; `name` is read by `label`, so it is no column of its own.
        #expect(
            schema.columns.map { "\($0.name):\($0.type.rawValue)" } == [
                "id:integer", "label:text", "qty:integer", "price:decimal", "on:date", "at:timestamp", "ok:boolean",
                "tags:json", "code:text",
            ])
        #expect(first.hasNote("member 'Bad Name': not a column name"))
        let rows = try await harness.rows("SELECT id, qty, price, \"on\", at, ok, tags, code FROM item ORDER BY id")
        #expect(JSONFeedTest.texts(rows, "price") == ["2", "2.50", "12345678901234567890.5"], "no digit lost")
        #expect(JSONFeedTest.integers(rows, "qty") == [3, 4])
        #expect(JSONFeedTest.texts(rows, "on") == ["2024-02-29"])
        #expect(JSONFeedTest.texts(rows, "at") == ["2024-02-29T10:00:00Z", "2024-03-01T00:00:00.500Z"])
        #expect(JSONFeedTest.texts(rows, "code") == ["7", "B7"], "an int and a string widen to string")
        #expect(rows.map { $0["ok"] } == [.integer(1), .integer(0), .null])

        // The same page again is counted unchanged, after the entity is declared.
        let again = try #require(try await harness.run().feeds.first)
        #expect(again.status == .ok, "\(again.error ?? "")")
        #expect(again.counts.unchanged == 3)
        #expect(try await harness.schemas()["item"] == schema)

        api.pass.set(2)
        let second = try #require(try await harness.run().feeds.first)
        #expect(second.status == .ok, "\(second.error ?? "")")
        #expect(second.hasNote("new column(s) rating (decimal)"))
        let grown = try #require(try await harness.schemas()["item"])
        #expect(grown.columns.map(\.name).suffix(2) == ["code", "rating"], "earlier columns are kept")
        let after = try await harness.rows("SELECT id, qty, rating, code FROM item ORDER BY id")
        #expect(JSONFeedTest.integers(after, "id") == [1, 2, 3, 4])
        #expect(JSONFeedTest.texts(after, "rating") == ["4.5", "5"])
        #expect(after.map { $0["code"] } == [.null, .text("B7"), .null, .null], "a member a record lacks is NULL")
    }

    @Test(arguments: HarnessStore.available)
    func aFullRefreshKeepsTheColumnsEarlierPassesFound(driver: HarnessStore) async throws {
        let api = GrowingAPI()
        let (harness, server) = try Self.harness(api, driver: driver)
        defer { server.stop() }
        #expect(try #require(try await harness.run().feeds.first).status == .ok)
        let found = try #require(try await harness.schemas()["item"]).columns.map(\.name)
        api.pass.set(2)
        var engine = try await Engine.open(try harness.config())
        engine.fullRefresh = true
        let full = try #require(await engine.run().feeds.first)
        #expect(full.status == .ok, "\(full.error ?? "")")
        #expect(full.hasNote("new column(s) rating (decimal)"), "only rating is new: \(full.notes)")
        let columns = try #require(try await harness.schemas()["item"]).columns.map(\.name)
        #expect(columns == found + ["rating"], "the columns found before stay declared")
        #expect(try await harness.config().storedRetiredColumns()["item"] == nil, "none is retired")
        let rows = try await harness.rows("SELECT id, code FROM item ORDER BY id")
        #expect(rows.map { $0["code"] } == [.null, .text("B7"), .null, .null])
    }

    @Test(arguments: HarnessStore.available)
    func newColumnsDiscardKeepsTheColumnsFoundAndFreezeFailsNamingTheNewOne(driver: HarnessStore) async throws {
        for (rule, fails) in [("discard", false), ("freeze", true)] {
            let api = GrowingAPI()
            let (harness, server) = try Self.harness(
                api, schema: "schema: { new_columns: \(rule) }", driver: driver)
            defer { server.stop() }
            #expect(try #require(try await harness.run().feeds.first).status == .ok, "the first pass creates the table")
            api.pass.set(2)
            let second = try #require(try await harness.run().feeds.first)
            let columns = try #require(try await harness.schemas()["item"]).columns.map(\.name)
            #expect(!columns.contains("rating"), "\(rule)")
            if fails {
                #expect(second.status == .failed)
                #expect(second.error?.contains("new column 'rating' (decimal)") == true, "\(second.error ?? "")")
                #expect(
                    JSONFeedTest.integers(try await harness.rows("SELECT id FROM item ORDER BY id"), "id") == [1, 2, 3])
            } else {
                #expect(second.status == .ok, "\(second.error ?? "")")
                #expect(second.hasNote("new member 'rating' (schema: new_columns: discard)"))
                #expect(
                    JSONFeedTest.integers(try await harness.rows("SELECT qty FROM item ORDER BY id"), "qty") == [
                        5, 4, 6,
                    ])
            }
        }
    }

    @Test(arguments: HarnessStore.available)
    func aStoredColumnThatWouldWidenIsATypeChangeThatTypeChangesFreezeRefuses(driver: HarnessStore) async throws {
        let body = Shared(#"{"items":[{"id":1,"qty":3},{"id":2,"qty":4}]}"#)
        let server = try LoopbackServer { _ in .json(body.value) }
        defer { server.stop() }
        let harness = try JSONFeedTest.harness(
            url: server.url("/items"),
            """
                records: $.items
                entity: item
                key: id
                extra: columns
                schema: { type_changes: freeze }
                fields: { id: int }
            """, driver: driver)
        #expect(try #require(try await harness.run().feeds.first).status == .ok)
        body.set(#"{"items":[{"id":1,"qty":3},{"id":2,"qty":4.5}]}"#)
        let widened = try #require(try await harness.run().feeds.first)
        #expect(widened.status == .failed)
        #expect(
            widened.error?.contains("column 'qty' is integer in the store and decimal now") == true,
            "\(widened.error ?? "")")
        #expect(widened.error?.contains("type_changes: freeze") == true)
        #expect(try await harness.schemas()["item"]?.columns.map(\.type) == [.integer, .integer])
        #expect(JSONFeedTest.integers(try await harness.rows("SELECT qty FROM item ORDER BY id"), "qty") == [3, 4])
    }

    @Test func typesWidenAndNeverLoseADigit() {
        func type(_ values: [String]) -> InferredType? {
            let records = values.compactMap { try? JSONParser.parse($0) }.map { JSONObject([("v", $0)]) }
            return AutoColumns.infer(records, known: [], declared: [], discardsNew: false).columns.first?.type
        }
        #expect(type(["1", "2"]) == .int)
        #expect(type(["1", "2.50"]) == .decimal)
        #expect(type(["1", "\"x\""]) == .string)
        #expect(type(["true", "1"]) == .string)
        #expect(type(["\"2024-02-29\"", "\"2024-02-29T10:00:00Z\""]) == .string)
        #expect(type(["1", "[1]"]) == .json)
        #expect(type(["null"]) == nil)
    }
}

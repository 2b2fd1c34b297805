import FeedEngine
import FeedKit
import FeedTestSupport
import Foundation
import Testing

/// A changed field type is planned (``SchemaPlan``) and applied in the pass's transaction: the
/// column is converted in place when every stored value converts, else the pass fails naming
/// the first value that does not, and the store stays as it was.
@Suite("json adapter: schema changes planned and applied in the pass")
struct JSONSchemaChangeTests {
    /// A harness whose feed reads `items.json` (holding `body`) with `fields`.
    static func harness(body: String, fields: String, driver: HarnessStore) throws -> FeedHarness {
        try JSONFeedTest.harness(
            url: "items.json", JSONMappingChangeTests.feed(fields: fields),
            files: ["items.json": Data(body.utf8)], driver: driver)
    }

    /// Replaces the feed's fields and its file's body.
    static func change(_ harness: FeedHarness, body: String, fields: String) throws {
        try harness.write("items.json", Data(body.utf8))
        try JSONMappingChangeTests.change(harness, to: "items.json", fields: fields)
    }

    /// The plan of the harness's config against its store.
    static func plan(_ harness: FeedHarness) async throws -> [SchemaChange] {
        SchemaPlan.changes(
            declared: try harness.config().declaredEntities.map(\.schema), stored: try await harness.schemas())
    }

    @Test(arguments: HarnessStore.available)
    func anIntegerColumnBecomesDecimalInPlace(driver: HarnessStore) async throws {
        let body = #"{"items":[{"id":1,"price":12},{"id":2,"price":7}]}"#
        let harness = try Self.harness(body: body, fields: "{ id: int, price: int }", driver: driver)
        #expect(try await harness.run().feeds.first?.status == .ok)
        try Self.change(harness, body: body, fields: "{ id: int, price: decimal }")
        await #expect(
            try Self.plan(harness) == [.convert(entity: "item", column: "price", from: .integer, to: .decimal)])
        let report = try #require(try await harness.run().feeds.first)
        #expect(report.status == .ok, "\(report.error ?? "")")
        #expect(
            try await harness.rows("SELECT price FROM item ORDER BY id").map { $0["price"] } == [
                .text("12"), .text("7"),
            ])
        #expect(try await harness.schemas()["item"]?.columns.last?.type == .decimal)
        await #expect(try Self.plan(harness) == [])
    }

    @Test(arguments: HarnessStore.available)
    func aTextColumnBecomesIntegerWhenEveryValueParses(driver: HarnessStore) async throws {
        let harness = try Self.harness(
            body: #"{"items":[{"id":1,"code":"7"},{"id":2,"code":"-12"}]}"#, fields: "{ id: int, code: string }",
            driver: driver)
        #expect(try await harness.run().feeds.first?.status == .ok)
        try Self.change(
            harness, body: #"{"items":[{"id":1,"code":7},{"id":2,"code":-12}]}"#, fields: "{ id: int, code: int }")
        let report = try #require(try await harness.run().feeds.first)
        #expect(report.status == .ok, "\(report.error ?? "")")
        #expect(
            try await harness.rows("SELECT code FROM item ORDER BY id").map { $0["code"] } == [
                .integer(7), .integer(-12),
            ])
    }

    @Test(arguments: HarnessStore.available)
    func aValueThatDoesNotConvertFailsThePassNamingItAndChangesNothing(driver: HarnessStore) async throws {
        let harness = try Self.harness(
            body: #"{"items":[{"id":1,"code":"7"},{"id":2,"code":"n/a"}]}"#, fields: "{ id: int, code: string }",
            driver: driver)
        #expect(try await harness.run().feeds.first?.status == .ok)
        try Self.change(
            harness, body: #"{"items":[{"id":1,"code":7},{"id":2,"code":8}]}"#,
            fields: "{ id: int, code: int, added: string }")
        let change = SchemaChange.convert(entity: "item", column: "code", from: .text, to: .integer)
        let refusal = try #require(try await SchemaPlan.refusal(of: change, in: harness.config().readingStore()))
        let report = try #require(try await harness.run().feeds.first)
        #expect(report.status == .failed)
        let error = report.error ?? ""
        #expect(error.hasSuffix(refusal), "the plan foresees the pass's error: \(refusal)")
        #expect(
            error.contains(
                "column 'code' of 'item' cannot change from text to integer: the value 'n/a' of the row with key '2' (feed 'items') does not convert; nothing was changed"
            ), "\(error)")
        #expect(
            try await harness.rows("SELECT code FROM item ORDER BY id").map { $0["code"] } == [
                .text("7"), .text("n/a"),
            ])
        #expect(try await harness.schemas()["item"]?.columns.map(\.type) == [.integer, .text])
        await #expect(try !harness.rows("SELECT * FROM item").contains { $0["added"] != nil }, "no column was added")
    }

    @Test(arguments: HarnessStore.available)
    func aChangeThatCannotConvertValuesIsRefusedButAnEmptyColumnTakesAnyType(driver: HarnessStore) async throws {
        let harness = try Self.harness(
            body: #"{"items":[{"id":1,"seen":"2024-01-02T03:04:05Z"},{"id":2}]}"#,
            fields: "{ id: int, seen: timestamp, note: string }", driver: driver)
        #expect(try await harness.run().feeds.first?.status == .ok)
        try Self.change(
            harness, body: #"{"items":[{"id":1,"seen":5,"note":true}]}"#, fields: "{ id: int, seen: int, note: bool }")
        let refused = try #require(try await harness.run().feeds.first)
        #expect(refused.status == .failed)
        #expect(
            refused.error?.contains("column 'seen' of 'item' cannot change from timestamp to integer in place") == true)
        try Self.change(
            harness, body: #"{"items":[{"id":1,"seen":"2024-01-02T03:04:05Z","note":true}]}"#,
            fields: "{ id: int, seen: timestamp, note: bool }")
        let report = try #require(try await harness.run().feeds.first)
        #expect(report.status == .ok, "\(report.error ?? "")")
        #expect(try await harness.rows("SELECT note FROM item WHERE id = 1").first?["note"] == .integer(1))
    }

    @Test(arguments: HarnessStore.available)
    func aFieldNoLongerDeclaredKeepsItsColumnAndValues(driver: HarnessStore) async throws {
        let harness = try Self.harness(
            body: #"{"items":[{"id":1,"a":"a1","b":"b1"}]}"#, fields: "{ id: int, a: string, b: string }",
            driver: driver)
        #expect(try await harness.run().feeds.first?.status == .ok)
        try Self.change(
            harness, body: #"{"items":[{"id":1,"a":"a1","b":"b1"},{"id":2,"a":"a2","b":"b2"}]}"#,
            fields: "{ id: int, a: string, c: int }")
        await #expect(
            try Self.plan(harness) == [
                .retire(entity: "item", column: "b"), .add(entity: "item", column: "c", type: .integer),
            ])
        #expect(try await harness.run().feeds.first?.status == .ok)
        #expect(
            try await harness.rows("SELECT b FROM item ORDER BY id").map { $0["b"] ?? .null } == [.text("b1"), .null],
            "the retired column keeps its values; new rows leave it NULL")
        do {
            _ = try await harness.config().drop(.column(entity: "item", column: "a"))
            Issue.record("a declared column was dropped")
        } catch let error as StoreError {
            #expect(
                error.message
                    == "cannot drop column 'a' of entity 'item': the config declares it: remove its field first, then drop it"
            )
        }
        #expect(
            try await harness.config().drop(.column(entity: "item", column: "b"))
                == "dropped column 'b' of entity 'item'")
        #expect(try await harness.rows("SELECT * FROM item_view").allSatisfy { $0["b"] == nil && $0["a"] != nil })
        #expect(try await harness.rows("SELECT * FROM item").allSatisfy { $0["b"] == nil })
    }
}

import FeedEngine
import FeedKit
import FeedTestSupport
import Foundation
import Testing

/// A column a feed no longer declares is marked retired in `_entities` (with its type and when),
/// revived with its values when declared again, and its mark goes with `drop --column`; a
/// nested list's column changes type like a top-level one.
@Suite("json adapter: retired columns and child-table conversions")
struct JSONRetiredColumnTests {
    /// The marks `_entities.retired` holds for `entity`, read as a user's SQL would.
    static func marks(_ harness: FeedHarness, _ entity: String = "item") async throws -> [RetiredColumn] {
        try await harness.config().storedRetiredColumns()[entity] ?? []
    }

    @Test(arguments: HarnessStore.available)
    func aRetiredColumnIsMarkedRevivedWithItsValuesAndUnmarkedByDrop(driver: HarnessStore) async throws {
        let body = #"{"items":[{"id":1,"a":"a1","b":"b1"},{"id":2,"a":"a2","b":"b2"}]}"#
        let harness = try JSONSchemaChangeTests.harness(
            body: body, fields: "{ id: int, a: string, b: string }", driver: driver)
        #expect(try await harness.run().feeds.first?.status == .ok)
        #expect(try await Self.marks(harness).isEmpty)

        // A rename: `b2` reads `b`'s path; `b` is retired, `b2` added and filled by the re-map.
        try JSONSchemaChangeTests.change(
            harness, body: body, fields: "{ id: int, a: string, b2: { path: b, type: string } }")
        #expect(
            try await JSONSchemaChangeTests.plan(harness).map(\.description) == [
                "item: column 'b' retired (no longer declared): its values stay, new rows leave it NULL",
                "item: column 'b2' added (text), filled by re-map",
            ])
        let before = Timestamp.string(Date())
        let renamed = try #require(try await harness.run().feeds.first)
        #expect(renamed.status == .ok, "\(renamed.error ?? "")")
        let marks = try await Self.marks(harness)
        #expect(marks.map(\.name) == ["b"])
        #expect(marks.first?.type == .text)
        #expect(try #require(marks.first?.retiredAt) >= before, "marked with the time of the pass")
        #expect(JSONFeedTest.texts(try await harness.rows("SELECT b2 FROM item ORDER BY id"), "b2") == ["b1", "b2"])

        // An unchanged pass leaves the mark as it was.
        #expect(try await harness.run().feeds.first?.status == .ok)
        #expect(try await Self.marks(harness) == marks)

        // Declared again (as an int, its values converting): revived with its values, unmarked.
        try JSONSchemaChangeTests.change(
            harness, body: #"{"items":[{"id":3,"a":"a3","b":"b3"}]}"#,
            fields: "{ id: int, a: string, b2: { path: b, type: string }, b: { path: a, type: string } }")
        #expect(
            try await SchemaPlan.changes(
                declared: harness.config().declaredEntities.map(\.schema), stored: harness.schemas(),
                retired: harness.config().storedRetiredColumns()
            ) == [.revive(entity: "item", column: "b", type: .text)])
        let revived = try #require(try await harness.run().feeds.first)
        #expect(revived.status == .ok, "\(revived.error ?? "")")
        #expect(try await Self.marks(harness).isEmpty)
        #expect(
            JSONFeedTest.texts(try await harness.rows("SELECT b FROM item ORDER BY id"), "b") == ["b1", "b2", "a3"],
            "the kept values stay; the new row's is the new path's")

        // Retired again, then dropped: the column and its mark go.
        try JSONSchemaChangeTests.change(harness, body: body, fields: "{ id: int, a: string }")
        #expect(try await harness.run().feeds.first?.status == .ok)
        #expect(Set(try await Self.marks(harness).map(\.name)) == ["b", "b2"])
        #expect(
            try await harness.config().drop(.column(entity: "item", column: "b"))
                == "dropped column 'b' of entity 'item'")
        #expect(try await Self.marks(harness).map(\.name) == ["b2"])
        #expect(
            try await harness.config().drop(.column(entity: "item", column: "b2"))
                == "dropped column 'b2' of entity 'item'")
        #expect(try await Self.marks(harness).isEmpty)
        #expect(try await harness.rows("SELECT * FROM item").allSatisfy { $0["b"] == nil && $0["b2"] == nil })
    }

    @Test(arguments: HarnessStore.available)
    func aRevivedColumnWhoseTypeChangedIsConvertedFromItsRetiredType(driver: HarnessStore) async throws {
        let harness = try JSONSchemaChangeTests.harness(
            body: #"{"items":[{"id":1,"n":7},{"id":2,"n":8}]}"#, fields: "{ id: int, n: int }", driver: driver)
        #expect(try await harness.run().feeds.first?.status == .ok)
        try JSONSchemaChangeTests.change(harness, body: #"{"items":[{"id":1},{"id":2}]}"#, fields: "{ id: int }")
        #expect(try await harness.run().feeds.first?.status == .ok)
        #expect(try await Self.marks(harness).map(\.type) == [.integer])
        try JSONSchemaChangeTests.change(
            harness, body: #"{"items":[{"id":3,"n":"1.50"}]}"#, fields: "{ id: int, n: decimal }")
        let report = try #require(try await harness.run().feeds.first)
        #expect(report.status == .ok, "\(report.error ?? "")")
        #expect(
            try await harness.rows("SELECT n FROM item ORDER BY id").map { $0["n"] } == [
                .text("7"), .text("8"), .text("1.50"),
            ])
        #expect(try await Self.marks(harness).isEmpty)
    }

    /// The fields of records with a nested list of lines, whose `qty` is of type `type`.
    static func childFields(_ type: String) -> String {
        "{ id: int, lines: { type: list, fields: { sku: string, qty: \(type) } } }"
    }

    @Test(arguments: HarnessStore.available)
    func aChildTableColumnIsConvertedInPlaceOrRefusedNamingTheValue(driver: HarnessStore) async throws {
        let body =
            #"{"items":[{"id":1,"lines":[{"sku":"a","qty":"2"},{"sku":"b","qty":"n/a"}]},{"id":2,"lines":[{"sku":"c","qty":"5"}]}]}"#
        let harness = try JSONSchemaChangeTests.harness(body: body, fields: Self.childFields("string"), driver: driver)
        #expect(try await harness.run().feeds.first?.status == .ok)

        // text -> integer, refused: the value that does not convert is named, nothing changes.
        try JSONSchemaChangeTests.change(harness, body: body, fields: Self.childFields("int"))
        let change = SchemaChange.convert(entity: "item__lines", column: "qty", from: .text, to: .integer)
        #expect(try await JSONSchemaChangeTests.plan(harness) == [change])
        let refusal = try #require(try await SchemaPlan.refusal(of: change, in: harness.config().readingStore()))
        let refused = try #require(try await harness.run().feeds.first)
        #expect(refused.status == .failed)
        #expect(
            refused.error?.hasSuffix(
                "column 'qty' of 'item__lines' cannot change from text to integer: the value 'n/a' of the row with key '1' (feed 'items') does not convert; nothing was changed"
            ) == true, "\(refused.error ?? "")")
        #expect(refused.error?.hasSuffix(refusal) == true, "the plan foresees the pass's error")
        #expect(
            JSONFeedTest.texts(try await harness.rows("SELECT qty FROM item__lines ORDER BY _key, _position"), "qty")
                == [
                    "2", "n/a", "5",
                ])

        // text -> decimal once every value converts: the column is converted in place.
        let fixed = body.replacingOccurrences(of: "n/a", with: "3.5")
        try JSONSchemaChangeTests.change(harness, body: fixed, fields: Self.childFields("string"))
        #expect(try await harness.run().feeds.first?.status == .ok)
        try JSONSchemaChangeTests.change(harness, body: fixed, fields: Self.childFields("int"))
        let stillRefused = try #require(try await harness.run().feeds.first)
        #expect(stillRefused.error?.contains("the value '3.5' of the row with key '1'") == true)
        try JSONSchemaChangeTests.change(harness, body: fixed, fields: Self.childFields("decimal"))
        let converted = try #require(try await harness.run().feeds.first)
        #expect(converted.status == .ok, "\(converted.error ?? "")")
        #expect(try await harness.schemas()["item"]?.children.first?.columns.last?.type == .decimal)
        #expect(
            JSONFeedTest.texts(try await harness.rows("SELECT qty FROM item__lines ORDER BY _key, _position"), "qty")
                == [
                    "2", "3.5", "5",
                ])
        #expect(try await JSONSchemaChangeTests.plan(harness) == [])
    }
}

import FeedEngine
import FeedFixtures
import FeedKit
import FeedTestSupport
import Foundation
import JSONFeed
import Testing

@Suite("json adapter: nested lists")
struct JSONChildTableTests {
    static let yaml = """
            records: $.items
            entity: item
            key: id
            write: replace
            fields:
              id: int
              tags: { type: list, of: string }
              lines: { type: list, fields: { sku: string, qty: { path: amount.qty, type: int } } }
              codes: { type: list, as: json }
        """

    /// A server whose body can be changed between passes.
    static func server(_ body: Shared<String>) throws -> LoopbackServer {
        try LoopbackServer { _ in .json(body.value) }
    }

    @Test(arguments: HarnessStore.available)
    func aListOfScalarsBecomesAChildTableWithParentKeyAndPosition(driver: HarnessStore) async throws {
        let body = Shared(#"{"items":[{"id":1,"tags":["red","sweet"]},{"id":2,"tags":[]}]}"#)
        let server = try Self.server(body)
        let harness = try JSONFeedTest.harness(url: server.url("/items"), Self.yaml, driver: driver)
        _ = try await harness.run()
        let rows = try await harness.rows("SELECT _key, _position, value FROM item__tags ORDER BY _key, _position")
        #expect(JSONFeedTest.texts(rows, "_key") == ["1", "1"])
        #expect(JSONFeedTest.integers(rows, "_position") == [0, 1])
        #expect(JSONFeedTest.texts(rows, "value") == ["red", "sweet"])
    }

    @Test(arguments: HarnessStore.available)
    func aListOfObjectsBecomesAChildTableWithDeclaredColumns(driver: HarnessStore) async throws {
        let body = Shared(
            #"{"items":[{"id":1,"lines":[{"sku":"a","amount":{"qty":2}},{"sku":"b","amount":{"qty":5}}]}]}"#)
        let server = try Self.server(body)
        let harness = try JSONFeedTest.harness(
            url: server.url("/items"), Self.yaml, driver: driver)
        _ = try await harness.run()
        let rows = try await harness.rows("SELECT sku, qty FROM item__lines ORDER BY _position")
        #expect(JSONFeedTest.texts(rows, "sku") == ["a", "b"])
        #expect(JSONFeedTest.integers(rows, "qty") == [2, 5])
    }

    @Test(arguments: HarnessStore.available)
    func aListCanBeKeptAsAJSONColumn(driver: HarnessStore) async throws {
        let body = Shared(#"{"items":[{"id":1,"codes":[1,"x",{"y":2}]}]}"#)
        let server = try Self.server(body)
        let harness = try JSONFeedTest.harness(
            url: server.url("/items"), Self.yaml, driver: driver)
        _ = try await harness.run()
        let rows = try await harness.rows("SELECT codes FROM item")
        let codes = try JSONFeedTest.texts(rows, "codes").map { try JSONParser.parse(Data($0.utf8)) }
        #expect(codes == [try JSONParser.parse(Data(#"[1,"x",{"y":2}]"#.utf8))])
    }

    @Test(arguments: HarnessStore.available)
    func childRowsAreReplacedWhenTheParentChanges(driver: HarnessStore) async throws {
        let body = Shared(#"{"items":[{"id":1,"tags":["a","b","c"]}]}"#)
        let server = try Self.server(body)
        let harness = try JSONFeedTest.harness(
            url: server.url("/items"), Self.yaml, driver: driver)
        _ = try await harness.run()
        body.set(#"{"items":[{"id":1,"tags":["z"]}]}"#)
        let report = try await harness.run()
        #expect(report.feeds.first?.counts.updated == 1)
        #expect(JSONFeedTest.texts(try await harness.rows("SELECT value FROM item__tags"), "value") == ["z"])
    }

    @Test(arguments: HarnessStore.available)
    func childRowsGoWithTheirParentInReplaceMode(driver: HarnessStore) async throws {
        let body = Shared(#"{"items":[{"id":1,"tags":["a"]},{"id":2,"tags":["b"]}]}"#)
        let server = try Self.server(body)
        let harness = try JSONFeedTest.harness(
            url: server.url("/items"), Self.yaml, driver: driver)
        _ = try await harness.run()
        body.set(#"{"items":[{"id":2,"tags":["b"]}]}"#)
        let report = try await harness.run()
        #expect(report.feeds.first?.counts.deleted == 1)
        #expect(JSONFeedTest.texts(try await harness.rows("SELECT _key FROM item__tags"), "_key") == ["2"])
    }
}

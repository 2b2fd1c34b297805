import FeedEngine
import FeedFixtures
import FeedKit
import Foundation

/// A small adapter the engine tests run: it reads `[{"id": "...", "value": 1}, ...]` and writes
/// the entity `item`, in the write mode its options name. `fail_after` makes it throw after
/// writing that many records, to test a feed that fails mid-pass.
struct ItemsAdapter: FeedAdapter {
    struct Options: Decodable, Sendable {
        var url: String
        var mode: WriteMode?
        var entity: String?
        var failAfter: Int?
        /// Items fetched once those of `url` are written: the pass's transaction is open while
        /// this answer is awaited.
        var then: String?

        enum CodingKeys: String, CodingKey {
            case url, mode, entity, then
            case failAfter = "fail_after"
        }
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String { "failed on purpose after writing records" }
    }

    static func schema(named name: String) -> EntitySchema {
        EntitySchema(
            name: name, columns: [Column("id", .text, nullable: false), Column("value", .integer)], key: ["id"],
            order: [.ascending("id")])
    }

    static let description = AdapterDescription(
        name: "items", summary: "Test items.", options: [OptionHelp("url", "string", "the items")],
        entities: [schema(named: "item")])

    let options: Options

    init(options: Options, feed: FeedSetup) throws {
        if let failAfter = options.failAfter, failAfter < 0 {
            throw OptionError("fail_after must not be negative", at: ["fail_after"])
        }
        self.options = options
    }

    var entities: [EntityBinding] {
        [EntityBinding(Self.schema(named: options.entity ?? "item"), mode: options.mode ?? .merge)]
    }

    func run(_ pass: FeedPass) async throws {
        var index = 0
        for url in [options.url] + (options.then.map { [$0] } ?? []) {
            let response = try await pass.fetch(FetchRequest(url: url))
            guard let items = try JSONParser.parse(response.body).arrayValue else {
                throw PayloadError(feed: pass.feed, url: response.url, path: "$", message: "expected a list")
            }
            let schema = entities[0].schema
            for item in items {
                if let failAfter = options.failAfter, index == failAfter { throw Failure() }
                index += 1
                let record = try EntityRecord(
                    schema: schema,
                    fields: [
                        "id": .text(item["id"]?.stringValue),
                        "value": .integer(item["value"]?.int64Value.map(Int.init)),
                    ])
                try await pass.write(RecordBatch(records: [record]))
            }
        }
    }
}

/// JSON text of items with the given ids and values.
func itemsJSON(_ items: [(String, Int)]) -> Data {
    Data(("[" + items.map { #"{"id":"\#($0.0)","value":\#($0.1)}"# }.joined(separator: ",") + "]").utf8)
}

import FeedEngine
import FeedKit
import FeedTestSupport
import Foundation

/// A test adapter writing ads and their categories, whose relation the store may enforce:
/// like the classified adapter, but it writes every ad it reads (the classified adapter rejects
/// an ad whose category is not in the pass) and lets the test choose each entity's write mode
/// and whether the relation is enforced, so that the store's foreign key is what stops a row
/// pointing at nothing.
///
/// It reads `{"categories": [{"id", "name"}], "ads": [{"id", "category_id", "title"}]}`; the
/// payloads are in `Fixtures/foreign-keys`:
/// - `three-ads.json`: three categories, one ad in each;
/// - `four-categories.json`: the same, and a fourth category that no ad points at;
/// - `category-dropped.json`: category 3 is gone, and so is ad 103, which a `merge` pass keeps;
/// - `category-renamed.json`: the three ads, with category 2 under another name;
/// - `unknown-category.json`: ad 104 points at category 9, which the payload lacks.
struct AdsTestAdapter: FeedAdapter {
    struct Options: Decodable, Sendable {
        var url: String
        var categoryWrite: WriteMode?
        var classifiedWrite: WriteMode?
        var enforced: Bool?

        enum CodingKeys: String, CodingKey {
            case url, enforced
            case categoryWrite = "category_write"
            case classifiedWrite = "classified_write"
        }
    }

    static let category = EntitySchema(
        name: "category", columns: [Column("id", .integer, nullable: false), Column("name", .text)], key: ["id"])

    static func classified(enforced: Bool) -> EntitySchema {
        EntitySchema(
            name: "classified",
            columns: [
                Column("id", .integer, nullable: false), Column("category_id", .integer), Column("title", .text),
            ],
            key: ["id"],
            relations: [Relation(column: "category_id", entity: "category", labelColumn: "name", enforced: enforced)])
    }

    static let description = AdapterDescription(
        name: "ads", summary: "Test ads and their categories.",
        options: [OptionHelp("url", "string", "the categories and ads")],
        entities: [category, classified(enforced: true)])

    let options: Options

    init(options: Options, feed: FeedSetup) { self.options = options }

    var entities: [EntityBinding] {
        [
            EntityBinding(Self.category, mode: options.categoryWrite ?? .merge),
            EntityBinding(Self.classified(enforced: options.enforced ?? true), mode: options.classifiedWrite ?? .merge),
        ]
    }

    func run(_ pass: FeedPass) async throws {
        let payload = try pass.parseJSON(try await pass.fetch(FetchRequest(url: options.url)))
        let classified = entities[1].schema
        func integer(_ value: JSONValue?) -> FieldValue { value?.int64Value.map(FieldValue.integer) ?? .null }
        var batch = RecordBatch()
        for item in payload["categories"]?.arrayValue ?? [] {
            batch.records.append(
                try EntityRecord(
                    schema: Self.category,
                    fields: ["id": integer(item["id"]), "name": .text(item["name"]?.stringValue)]))
        }
        // Ads after their categories here; the foreign key is checked at the commit in any case.
        for item in payload["ads"]?.arrayValue ?? [] {
            let fields: [String: FieldValue] = [
                "id": integer(item["id"]), "category_id": integer(item["category_id"]),
                "title": .text(item["title"]?.stringValue),
            ]
            batch.records.append(try EntityRecord(schema: classified, fields: fields))
        }
        try await pass.write(batch)
    }
}

/// Feeds of ``AdsTestAdapter`` over the payloads of `Fixtures/foreign-keys`.
enum AdsFeed {
    static let registry = AdapterRegistry([AdsTestAdapter.self])

    /// The feed `shop` with these options, reading `ads.json`.
    static func yaml(_ options: String = "") -> String {
        "feeds:\n  - { name: shop, adapter: ads, url: ads.json\(options.isEmpty ? "" : ", " + options) }\n"
    }

    /// A harness whose `ads.json` is the fixture `payload`.
    static func harness(_ payload: String, options: String = "", store: HarnessStore) throws -> FeedHarness {
        try FeedHarness(
            registry: registry, yaml: yaml(options), files: ["ads.json": try fixture(payload)], store: store)
    }

    static func fixture(_ name: String) throws -> Data { try TestFixtures.data("foreign-keys/\(name)") }
}

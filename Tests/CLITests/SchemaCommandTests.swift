import Foundation
import Testing

/// `feedwork schema` describes the tables from the config alone, for YAML-declared entities too.
@Suite("feedwork schema")
struct SchemaCommandTests {
    let directory: URL

    init() throws {
        directory = try FeedworkProcess.makeFolder("schema")
        let config = """
            feeds:
              - name: shop
                adapter: json
                url: http://127.0.0.1:9/products
                records: items
                entity: product
                key: id
                write: replace
                fields:
                  id: int
                  price: { type: decimal }
                  tags: { type: list, of: string }
              - { name: fruit, adapter: fruit, url: data.json, enabled: false }
            """
        try Data(config.utf8).write(to: directory.appendingPathComponent("feeds.yaml"))
    }

    @Test func aYAMLDeclaredEntityIsShownBeforeAnyRunAndNoStoreIsCreated() async throws {
        let result = try await FeedworkProcess.run(["schema", "product"], in: directory)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("product (key: id)"))
        #expect(result.stdout.contains("written by: shop (replace)"))
        let rows = result.stdout.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
        #expect(rows.contains(["price", "decimal", "yes"]))
        #expect(result.stdout.contains("child table product__tags: _feed, _key, _position, value text"))
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("feeds.sqlite").path))
    }

    @Test func jsonListsEveryEntityWithItsWritersInConfigOrder() async throws {
        let result = try await FeedworkProcess.run(["schema", "--json"], in: directory)
        #expect(result.status == 0, "\(result.stderr)")
        let entities = try #require(
            try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        #expect(entities.map { $0["entity"] as? String } == ["product", "fruit"])
        let product = entities[0]
        #expect(product["key"] as? [String] == ["id"])
        #expect((product["columns"] as? [[String: Any]])?.map { $0["type"] as? String } == ["integer", "decimal"])
        #expect((product["system_columns"] as? [String])?.first == "_feed")
        let fruitFeeds = try #require(entities[1]["feeds"] as? [[String: Any]])
        #expect(fruitFeeds.first?["name"] as? String == "fruit")
        #expect(fruitFeeds.first?["enabled"] as? Bool == false)
    }

    @Test func anUnknownEntityExitsTwoNamingTheEntities() async throws {
        let result = try await FeedworkProcess.run(["schema", "prodcut"], in: directory)
        #expect(result.status == 2)
        #expect(result.stderr.contains("no entity 'prodcut' in the config; its entities: product, fruit"))
    }
}

/// `feedwork schema` says which relations the store enforces as foreign keys.
@Suite("feedwork schema: relations")
struct SchemaRelationTests {
    let directory: URL

    init() throws {
        directory = try FeedworkProcess.makeFolder("schema-relations")
        let config = """
            feeds:
              - { name: ads, adapter: classified, categories_url: categories.json, listing_url: listing.json }
              - { name: fx, adapter: currency, currencies: { url: list.json }, rates: { url: live.json } }
            """
        try Data(config.utf8).write(to: directory.appendingPathComponent("feeds.yaml"))
    }

    @Test func anEnforcedRelationIsShownAsAForeignKeyAndAnotherIsNot() async throws {
        let ads = try await FeedworkProcess.run(["schema", "classified"], in: directory)
        #expect(ads.status == 0, "\(ads.stderr)")
        #expect(ads.stdout.contains("  relation: category_id -> category (label name; enforced: a foreign key)\n"))
        let rates = try await FeedworkProcess.run(["schema", "exchange_rate"], in: directory)
        #expect(rates.stdout.contains("  relation: source -> currency (label name)\n"), "\(rates.stdout)")
    }

    @Test func jsonSaysWhetherEachRelationIsEnforced() async throws {
        let result = try await FeedworkProcess.run(["schema", "--json"], in: directory)
        #expect(result.status == 0, "\(result.stderr)")
        let entities = try #require(
            try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        func relations(_ entity: String) -> [[String: Any]] {
            entities.first { $0["entity"] as? String == entity }?["relations"] as? [[String: Any]] ?? []
        }
        #expect(relations("classified").map { $0["enforced"] as? Bool } == [true])
        #expect(relations("exchange_rate").map { $0["enforced"] as? Bool } == [false, false])
    }
}

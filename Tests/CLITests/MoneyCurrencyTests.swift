import Foundation
import Testing

/// Money stored in minor units carries its currency in the schema: `schema --json` and the
/// `export --all` manifest say that `249` is GBP 2.49.
@Suite("Money columns name their currency")
struct MoneyCurrencyTests {
    let directory: URL

    init() throws {
        directory = try FeedworkProcess.makeFolder("money")
        try Data(#"{"items":[{"id":1,"price":"2.49"}]}"#.utf8).write(to: directory.appendingPathComponent("items.json"))
        let yaml = """
            feeds:
              - name: shop
                adapter: json
                url: items.json
                records: items
                entity: item
                key: id
                fields: { id: int, price: { type: money, currency: GBP } }
            """
        try Data(yaml.utf8).write(to: directory.appendingPathComponent("feeds.yaml"))
    }

    func column(_ name: String, in columns: Any?) -> [String: Any]? {
        (columns as? [[String: Any]])?.first { $0["name"] as? String == name }
    }

    @Test func schemaGivesTheCurrencyOfAMoneyColumnAndNullForOthers() async throws {
        let result = try await FeedworkProcess.run(["schema", "item", "--json"], in: directory)
        #expect(result.status == 0, "\(result.stderr)")
        let entity = try #require(
            (try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])?.first)
        #expect(column("price", in: entity["columns"])?["currency"] as? String == "GBP")
        #expect(column("id", in: entity["columns"])?["currency"] is NSNull)
    }

    @Test func theExportManifestGivesTheCurrency() async throws {
        #expect(try await FeedworkProcess.run(["run"], in: directory).status == 0)
        let export = try await FeedworkProcess.run(["export", "--all", "--output-dir", "out"], in: directory)
        #expect(export.status == 0, "\(export.stderr)")
        let manifest = try #require(
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: directory.appendingPathComponent("out/manifest.json")))
                as? [String: Any])
        let entry = try #require(
            (manifest["entities"] as? [[String: Any]])?.first { $0["entity"] as? String == "item" })
        #expect(column("price", in: entry["columns"])?["currency"] as? String == "GBP")
    }
}

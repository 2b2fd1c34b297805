import CurrencyFeed
import FeedEngine
import FeedFixtures
import FeedKit
import FeedPricing
import Foundation
import Testing

@Suite("Goods catalog")
struct GoodsCatalogTests {
    func load(_ name: String) throws -> GoodsCatalog {
        let text = String(decoding: try TestFixtures.data("currency/pricing/\(name)"), as: UTF8.self)
        return try Self.catalog(yaml: text, file: name)
    }

    /// A catalog read as `feedwork price --catalog` reads one: decoded with the config's decoder.
    static func catalog(yaml: String, file: String) throws -> GoodsCatalog {
        try GoodsCatalog(entries: NodeDecoder(file: file).decode(OrderedMapping<GoodsCatalog.Entry>.self, yaml: yaml))
    }

    @Test func theStandardCatalogHasTheFourGoodsInUSD() {
        let goods = GoodsCatalog.standard.goods.map {
            "\($0.name) \(DecimalRounding.fixed($0.price, places: 2)) \($0.unit)"
        }
        #expect(goods == ["Peas 0.95 bag", "Eggs 2.10 dozen", "Milk 1.30 bottle", "Beans 0.73 can"])
    }

    @Test func aCatalogFileIsReadWithExactPricesInOrder() throws {
        let catalog = try load("goods.yaml")
        #expect(catalog.names == ["Tea", "Rice"])
        #expect(catalog.good(named: "tea")?.price == Decimal(3455) / 1000)
        #expect(catalog.good(named: "RICE")?.unit == "kg")
    }

    @Test func aPriceThatIsNotPositiveIsAnErrorWithItsLineAndColumn() throws {
        let error = try #require(throws: ConfigError.self) { try load("goods-bad-price.yaml") }
        #expect(error.description == "goods-bad-price.yaml:2:16: error: the price of 'Rice' must be more than 0")
    }

    @Test func anUnknownKeyIsAnErrorWithASuggestion() throws {
        let error = try #require(throws: ConfigError.self) { try load("goods-unknown-key.yaml") }
        #expect(error.description.contains("goods-unknown-key.yaml:1:21: error: unknown key 'units'"))
        #expect(error.description.contains("did you mean 'unit'?"))
    }

    @Test func anEmptyCatalogIsAnError() {
        #expect(throws: OptionError.self) { try Self.catalog(yaml: "{}", file: "goods.yaml") }
        #expect(throws: ConfigError.self) { try Self.catalog(yaml: "", file: "goods.yaml") }
    }
}

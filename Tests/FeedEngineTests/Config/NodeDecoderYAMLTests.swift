import FeedEngine
import FeedFixtures
import FeedKit
import Foundation
import Testing

@Suite("NodeDecoder over YAML text")
struct NodeDecoderYAMLTests {
    struct Item: Decodable, Equatable {
        var price: Decimal
        var unit: String
    }

    @Test func decodesADocumentWithExactDecimals() throws {
        let items = try NodeDecoder(file: "goods.yaml").decode(
            OrderedMapping<Item>.self, yaml: "Tea: { price: 3.455, unit: box }\nRice: { price: 1.20, unit: kg }\n")
        #expect(items.entries.map(\.key) == ["Tea", "Rice"])
        #expect(items.entries.first?.value == Item(price: Decimal(3455) / 1000, unit: "box"))
    }

    struct Limits: Decodable, Equatable {
        var rows: Int
        var pages: UInt8
    }

    @Test func anIntegerMayGroupItsDigitsWithUnderscores() throws {
        let limits = try NodeDecoder(file: "limits.yaml").decode(Limits.self, yaml: "rows: 1_000_000\npages: 2_5\n")
        #expect(limits == Limits(rows: 1_000_000, pages: 25))
        let error = try #require(throws: ConfigError.self) {
            try NodeDecoder(file: "limits.yaml").decode(Limits.self, yaml: "rows: 1_x\npages: 1\n")
        }
        #expect(error.description.contains("expected an integer, found '1_x'"))
    }

    @Test func aSyntaxErrorHasFileLineAndColumn() throws {
        let error = try #require(throws: ConfigError.self) {
            try NodeDecoder(file: "goods.yaml").decode(OrderedMapping<Item>.self, yaml: "Tea: { price: 3\nRice: [\n")
        }
        #expect(error.description.hasPrefix("goods.yaml:"))
        #expect(error.description.contains("YAML syntax"))
    }

    @Test func anEmptyDocumentIsAnError() {
        #expect(throws: ConfigError.self) {
            try NodeDecoder(file: "goods.yaml").decode(OrderedMapping<Item>.self, yaml: "")
        }
    }
}

import FeedEngine
import FeedFixtures
import FeedKit
import Testing

@testable import ClassifiedFeed

/// The pure mapping functions, without a store or a fetch.
@Suite("Classified mapping")
struct ClassifiedMappingTests {
    func price(_ literal: String, currency: String = "EUR") throws -> Int64? {
        let item = try JSONParser.parse(#"{"price": \#(literal)}"#)
        return try? ListingMapping.price(ItemFields(item), currency: currency)
    }

    @Test(arguments: [("0.29", 29), ("1.10", 110), ("19.99", 1999), ("140.00", 14000), ("1e2", 10000), ("-0", 0)])
    func pricesBecomeExactMinorUnits(literal: String, minorUnits: Int64) throws {
        #expect(try price(literal) == minorUnits)
    }

    @Test func aPriceThatBinaryFloatingPointWouldTruncateStaysExact() throws {
        // 0.29 * 100 is 28.999999999999996 in binary floating point.
        #expect(Int64(0.29 * 100.0) == 28)
        #expect(try price("0.29") == 29)
    }

    @Test func theCurrencyExponentSetsTheScale() throws {
        #expect(try price("1.234", currency: "KWD") == 1234)
        #expect(try price("1.234", currency: "EUR") == nil)
        #expect(try price("1500", currency: "JPY") == 1500)
    }

    @Test func categoriesReportTheIdsOfTheRecordsTheyKeep() throws {
        let items = try #require(
            try JSONParser.parse(#"[{"id":1,"name":"A"},{"id":"2","name":"B"},{"id":3,"name":"C"}]"#).arrayValue)
        let result = CategoryMapping.map(items)
        #expect(result.ids == [1, 3])
        #expect(result.batch.records.map(\.key) == ["1", "3"])
        #expect(result.batch.rejects.map(\.path) == ["$[1].id"])
    }

    @Test func aDuplicateKeyIsMappedAsDeliveredForTheWriterToResolve() throws {
        let items = try #require(
            try JSONParser.parse(
                #"[{"id":1,"name":"A"},{"id":2,"name":"B"},{"id":1,"name":"A2"},{"id":1,"name":"A3"}]"#
            ).arrayValue)
        let result = CategoryMapping.map(items)
        #expect(result.batch.records.map(\.key) == ["1", "2", "1", "1"])
        #expect(result.ids == [1, 2])
    }
}

import CurrencyFeed
import FeedPricing
import Testing

@Suite("Basket parsing")
struct BasketTests {
    @Test func namesAndQuantitiesAreReadAndRepeatsAdded() throws {
        let basket = try Basket.parse(arguments: ["milk", "eggs=2", "Milk=3"])
        #expect(basket.items == [Basket.Item(name: "milk", quantity: 4), Basket.Item(name: "eggs", quantity: 2)])
    }

    @Test(arguments: ["eggs=0", "eggs=-1", "eggs=two", "eggs=1.5", "eggs=", "=2", "eggs=1000001"])
    func aBadItemIsAnErrorNamingIt(_ token: String) {
        let error = #expect(throws: BasketError.self) { try Basket.parse(arguments: [token]) }
        #expect(error?.token == token)
    }

    @Test func aFileHasOneItemPerLineWithComments() throws {
        let basket = try Basket.parse(
            file: try String(decoding: TestFixtures.data("currency/pricing/basket.txt"), as: UTF8.self),
            named: "basket.txt")
        #expect(
            basket.items == [
                Basket.Item(name: "milk", quantity: 2), Basket.Item(name: "eggs", quantity: 2),
                Basket.Item(name: "beans", quantity: 3),
            ])
    }

    @Test func aBadLineInAFileIsNamedByFileAndLine() throws {
        let text = String(decoding: try TestFixtures.data("currency/pricing/basket-bad.txt"), as: UTF8.self)
        let error = try #require(throws: BasketError.self) { try Basket.parse(file: text, named: "basket-bad.txt") }
        #expect(
            error.description
                == "basket-bad.txt:2: 'eggs=two': the quantity must be a whole number from 1 to 1000000, found 'two'")
    }
}

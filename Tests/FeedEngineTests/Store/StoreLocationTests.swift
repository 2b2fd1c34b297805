import FeedEngine
import Testing

/// Where a store is, as `--store` names it: the input of the one place that picks a driver.
@Suite("store locations")
struct StoreLocationTests {
    @Test(arguments: ["postgres://feedwork:secret@db:5432/feeds", "postgresql://feedwork:secret@db/feeds"])
    func aServerURLIsASchemaOnThatServerNamedWithoutItsPassword(url: String) {
        let location = StoreLocation(url, schema: "shop")
        #expect(location.store == url)
        #expect(location.schema == "shop")
        #expect(location.filePath == nil)
        #expect(!location.description.contains("secret"))
        #expect(location.description.hasPrefix(url.prefix { $0 != ":" } + "://feedwork@db"))
        #expect(location.description.hasSuffix("/feeds (schema shop)"))
    }

    @Test func aServerURLWithoutASchemaHasTheServersDefault() {
        #expect(StoreLocation("postgres://db/feeds").schema == "feedwork")
    }

    @Test func anythingElseIsAFileThatMustBeThereToBeRead() {
        let location = StoreLocation("data/feeds.sqlite")
        #expect(location.store == "data/feeds.sqlite")
        #expect(location.schema == nil)
        #expect(location.filePath == "data/feeds.sqlite")
        #expect(location.description == "data/feeds.sqlite")
    }
}

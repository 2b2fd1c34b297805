import FeedEngine
import FeedKit
import FruitFeed
import JSONFeed
import Testing

/// A second adapter that calls itself `fruit`, as one of another package might.
struct SecondFruitAdapter: FeedAdapter {
    struct Options: Decodable, Sendable {}

    static let description = AdapterDescription(
        name: "fruit", summary: "Another fruit list.", options: [], entities: [])

    init(options: Options, feed: FeedSetup) {}

    func run(_ pass: FeedPass) async throws {}
}

/// The registry a program builds at start from the adapters it links.
@Suite("Adapter registry")
struct AdapterRegistryTests {
    @Test func twoAdaptersUnderOneNameAreRefusedNamingBothTypes() throws {
        let error = try #require(throws: DuplicateAdapterName.self) {
            try AdapterRegistry(unique: [FruitAdapter.self, JSONAdapter.self, SecondFruitAdapter.self])
        }
        #expect(error.name == "fruit")
        #expect(
            error.description
                == "adapter name 'fruit' is registered twice: by FruitFeed.FruitAdapter and AdapterTests.SecondFruitAdapter"
        )
    }

    @Test func distinctNamesAreRegisteredInOrderWithTheirModules() throws {
        let registry = try AdapterRegistry(unique: [JSONAdapter.self, FruitAdapter.self])
        #expect(registry.names == ["json", "fruit"])
        #expect(registry.provenances.map(\.module) == ["JSONFeed", "FruitFeed"])
        #expect(registry.provenances.map(\.typeName) == ["JSONFeed.JSONAdapter", "FruitFeed.FruitAdapter"])
    }
}

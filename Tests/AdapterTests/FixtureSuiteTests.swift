import ClassifiedFeed
import CurrencyFeed
import DestinationFeed
import FeedEngine
import FeedFixtures
import FeedKit
import Foundation
import FruitFeed
import JSONFeed
import Testing

/// The fixture suites of the built-in adapters (`Adapters/*/Fixtures/*/feed.yaml`), replayed as
/// `feedwork test` does, so `swift test` fails when an adapter's output changes.
enum BuiltinSuites {
    /// The adapters the suites may use; a new built-in adapter is added here as in the CLI's list.
    static let registry = AdapterRegistry([
        FruitAdapter.self, DestinationAdapter.self, ClassifiedAdapter.self, CurrencyAdapter.self, JSONAdapter.self,
    ])

    /// The repository's root folder.
    static let root: URL = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }  // Tests/AdapterTests/FixtureSuiteTests.swift
        return url
    }()

    /// Every suite's name, e.g. `Fruit/bbc-fruit`.
    static let names: [String] = FixtureSuite.discover(root: root).map(\.name)

    static func load(_ name: String) throws -> FixtureSuite {
        let directory = try #require(FixtureSuite.discover(root: root).first { $0.name == name }?.directory)
        return try FixtureSuite.load(directory: directory, name: name, registry: registry, environment: [:])
    }
}

@Suite("Built-in fixture suites")
struct FixtureSuiteTests {
    @Test func everyBuiltInAdapterHasASuite() {
        let adapters = Set(BuiltinSuites.names.compactMap { $0.split(separator: "/").first.map(String.init) })
        #expect(adapters.isSuperset(of: ["Fruit", "Classified", "Destination", "Currency"]))
    }

    @Test(arguments: BuiltinSuites.names)
    func suiteReplaysToItsExpectedRecords(_ name: String) async throws {
        let result = try await FixtureRunner().run(try BuiltinSuites.load(name))
        #expect(result.failures.isEmpty, "\(result.failures)")
        #expect(result.mismatches.isEmpty, "\(result.mismatches.map(\.description).joined(separator: "\n"))")
    }
}

/// The adapters over the real API payloads in `../shared/fixtures/real`: each replay must
/// succeed, keep every item, and produce rows that fit the entity's schema.
@Suite("Conformance over real payloads")
struct RealPayloadConformanceTests {
    /// Replays `responses` (live URL to real file) for the feed in `yaml`.
    func replay(_ yaml: String, _ responses: [(String, String)]) async throws -> (RecordSnapshot, FeedsConfig) {
        let config = try ConfigLoader(registry: BuiltinSuites.registry, environment: ["API_KEY": "***"])
            .load(yaml: yaml, path: "conformance.yaml", directory: FileManager.default.temporaryDirectory.path)
        let recorded = try responses.map { url, file in
            RecordedResponse(
                method: "GET", url: url, status: 200, body: file.isEmpty ? Data("[]".utf8) : try RealFixtures.data(file)
            )
        }
        let recording = FixtureRecording(startedAt: Date(timeIntervalSince1970: 1_580_428_800), responses: recorded)
        let (snapshot, failures) = try await FixtureRunner().replay(
            recording, config: config, feeds: config.feeds.map(\.name))
        #expect(failures.isEmpty, "\(failures)")
        return (snapshot, config)
    }

    /// Every non-nullable column holds a value, timestamps are ISO 8601 and decimals exact.
    func expectConformance(_ snapshot: RecordSnapshot, _ config: FeedsConfig) {
        for schema in config.feeds.flatMap({ $0.adapter.entities.map(\.schema) }) {
            for row in snapshot.tables[schema.name] ?? [] {
                for column in schema.columns {
                    let value = row[column.name] ?? .null
                    if !column.nullable { #expect(!value.isNull, "\(schema.name).\(column.name) is null in \(row)") }
                    guard case .string(let text) = value else { continue }
                    switch column.type {
                    case .timestamp: #expect(Timestamp.date(text) != nil, "\(schema.name).\(column.name): \(text)")
                    case .decimal: #expect(ExactDecimal(text) != nil, "\(schema.name).\(column.name): \(text)")
                    default: break
                    }
                }
            }
        }
    }

    @Test(.enabled(if: RealFixtures.available, "../shared/fixtures/real is not beside the checkout"))
    func fruitKeepsEveryItem() async throws {
        let url = "https://raw.githubusercontent.com/fmtvp/recruit-test-data/master/data.json"
        let (snapshot, config) = try await replay(
            "feeds:\n  - { name: bbc, adapter: fruit, url: \"\(url)\" }\n", [(url, "fruit/bbc-data.json")])
        #expect(snapshot.tables["fruit"]?.count == 9)
        #expect(snapshot.tables["_rejects"] == [])
        expectConformance(snapshot, config)
    }

    @Test(.enabled(if: RealFixtures.available, "../shared/fixtures/real is not beside the checkout"))
    func classifiedKeepsEveryCategoryAndAd() async throws {
        let base = "https://raw.githubusercontent.com/leboncoin/paperclip/master"
        let (snapshot, config) = try await replay(
            """
            feeds:
              - { name: lbc, adapter: classified, categories_url: "\(base)/categories.json", listing_url: "\(base)/listing.json" }
            """,
            [
                ("\(base)/categories.json", "classified/categories.json"),
                ("\(base)/listing.json", "classified/listing.json"),
            ])
        #expect(snapshot.tables["category"]?.count == 11)
        #expect((snapshot.tables["classified"]?.count ?? 0) + (snapshot.tables["_rejects"]?.count ?? 0) == 300)
        expectConformance(snapshot, config)
    }

    @Test(.enabled(if: RealFixtures.available, "../shared/fixtures/real is not beside the checkout"))
    func currencyKeepsEveryCurrencyAndQuoteWithoutTheKey() async throws {
        let (snapshot, config) = try await replay(
            """
            feeds:
              - name: cl
                adapter: currency
                access_key: ${API_KEY}
            """,
            [
                ("http://apilayer.net/api/list?access_key=***", "currency/currencylayer-list.json"),
                ("http://apilayer.net/api/live?access_key=***", "currency/currencylayer-live.json"),
            ])
        #expect(snapshot.tables["currency"]?.count == 168)
        #expect(snapshot.tables["exchange_rate"]?.count == 2)
        expectConformance(snapshot, config)
    }

    @Test(.enabled(if: RealFixtures.available, "../shared/fixtures/real is not beside the checkout"))
    func destinationKeepsADeliveryPageAndTheFlightOffer() async throws {
        let deliveries = "https://mock-api-mobile.dev.lalamove.com/deliveries"
        let flights = "https://api.skypicker.com/flights"
        let (snapshot, config) = try await replay(
            """
            feeds:
              - { name: deliveries, adapter: destination, source: deliveries, url: "\(deliveries)", limit: 20 }
              - { name: flights, adapter: destination, source: flights, url: "\(flights)", params: { dateFrom: "{{today|dd/MM/yyyy}}" } }
            """,
            [
                ("\(deliveries)?offset=0&limit=20", "destination/delivery-page-0.json"),
                ("\(deliveries)?offset=20&limit=20", ""),
                ("\(flights)?dateFrom=31%2F01%2F2020", "destination/kiwi-flights.json"),
            ])
        #expect(snapshot.tables["delivery"]?.filter { $0["_feed"] == .string("deliveries") }.count == 20)
        #expect(snapshot.tables["flight_offer"]?.filter { $0["_feed"] == .string("flights") }.count == 1)
        #expect(snapshot.tables["_rejects"] == [])
        expectConformance(snapshot, config)
    }
}

import DestinationFeed
import FeedEngine
import FeedFixtures
import FeedKit
import FeedTestSupport
import Foundation
import Testing

@Suite("Destination adapter: options")
struct DestinationOptionTests {
    func configError(_ feedKeys: String) throws -> String {
        let harness = try FeedHarness(
            registry: AdapterRegistry([DestinationAdapter.self]),
            yaml: """
                feeds:
                  - name: places
                    adapter: destination
                \(feedKeys)
                """)
        do {
            _ = try harness.config()
            return ""
        } catch let error as ConfigError {
            return error.description
        }
    }

    @Test func aDeliveryFilePathNeedsAnOffsetPlaceholder() throws {
        let message = try configError("    source: deliveries\n    url: deliveries.json")
        #expect(message.contains("feeds.yaml:5:10: error:"), "\(message)")
        #expect(message.contains("needs '{offset}'"))
    }

    @Test func aLimitPlaceholderWithoutAnOffsetPlaceholderIsRefused() throws {
        let message = try configError("    source: deliveries\n    url: https://example.com/d?limit={limit}")
        #expect(message.contains("url has '{limit}' but no '{offset}'"), "\(message)")
    }

    @Test func flightOptionsAreRefusedForDeliveries() throws {
        let message = try configError("    source: deliveries\n    url: d-{offset}.json\n    top: 3")
        #expect(
            message.contains("feeds.yaml:6:10: error: feed 'places': top does not apply to source: deliveries"),
            "\(message)")
    }

    @Test func deliveryOptionsAreRefusedForFlights() throws {
        let message = try configError("    source: flights\n    url: f.json\n    max_pages: 3")
        #expect(message.contains("max_pages does not apply to source: flights"), "\(message)")
    }

    @Test func anOutOfRangeLimitIsRefused() throws {
        let message = try configError("    source: deliveries\n    url: d-{offset}.json\n    limit: 0")
        #expect(message.contains("limit must be between 1 and 1000, not 0"), "\(message)")
    }

    @Test func anUnknownSourceIsRefused() throws {
        let message = try configError("    source: trains\n    url: t.json")
        #expect(message.contains("feeds.yaml:4:13"), "\(message)")
    }

    @Test func aBadDateTemplateInParamsIsRefusedWithItsLine() throws {
        let message = try configError(
            "    source: flights\n    url: https://example.com/flights\n    params:\n      dateFrom: \"{{tomorrow}}\"")
        #expect(message.contains("feeds.yaml:7:17"), "\(message)")
        #expect(message.contains("unknown value 'tomorrow'"))
    }

    @Test func anUnclosedImageTemplateIsRefused() throws {
        let message = try configError(
            "    source: flights\n    url: f.json\n    image_template: \"https://i/{mapIdto.jpg\"")
        #expect(message.contains("'{' without '}' in image_template"), "\(message)")
    }
}

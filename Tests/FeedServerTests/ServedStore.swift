import ClassifiedFeed
import FeedEngine
import FeedKit
import FeedServer
import FeedTestSupport
import Foundation
import Hummingbird

/// A store filled by the classified adapter from the repository's fixtures (categories and
/// 300-odd ads), served by a real server on a free loopback port.
enum ServedStore {
    static let registry = AdapterRegistry([ClassifiedAdapter.self])

    static var fixtures: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Adapters/Classified/Fixtures")
    }

    /// A harness whose feed `ads` ran once.
    static func harness(_ store: HarnessStore) async throws -> FeedHarness {
        let yaml = """
            feeds:
              - name: ads
                adapter: classified
                categories_url: \(fixtures.appendingPathComponent("categories.json").path)
                listing_url: \(fixtures.appendingPathComponent("listing.json").path)
                mirror_media: false
            """
        let harness = try FeedHarness(registry: registry, yaml: yaml, store: store)
        _ = try await harness.run()
        return harness
    }

    /// Serves `harness`'s store (with `token`, if any) while `body` sends it requests.
    static func serve(
        _ harness: FeedHarness, token: String? = nil, _ body: @escaping @Sendable (ServedClient) async throws -> Void
    ) async throws {
        let settings = ServeSettings(
            address: ListenAddress(host: "127.0.0.1", port: 0), token: token,
            browser: try StoreBrowser(config: try harness.config()), pricing: nil)
        try await serve(settings, body)
    }

    /// Serves with `settings` (on a free port) while `body` sends requests.
    static func serve(_ settings: ServeSettings, _ body: @escaping @Sendable (ServedClient) async throws -> Void)
        async throws
    {
        let (ports, listening) = AsyncStream.makeStream(of: Int.self)
        try await ServeApplication(settings: settings).serve(listening: { listening.yield($0) }) {
            var next = ports.makeAsyncIterator()
            guard let port = await next.next() else { throw CancellationError() }
            try await body(ServedClient(port: port))
        }
    }

    /// The answer's body as JSON.
    static func json(_ response: ServedResponse) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(response.body.readableBytesView), options: [.fragmentsAllowed])
    }

    static func text(_ response: ServedResponse) -> String {
        String(decoding: response.body.readableBytesView, as: UTF8.self)
    }
}

import FeedKit
import Foundation
import Testing

@testable import FeedEngine

/// `FeedConfig.namesRemoteURL`: whether a feed's entry names an http(s) URL, the hint on which
/// `feedwork run` starts loading libcurl before the first transfer.
@Suite("Config: a feed that names a remote URL")
struct RemoteURLHintTests {
    let loader = ConfigLoader(
        registry: AdapterRegistry([ItemsAdapter.self]), environment: ["API": "https://api.example.com/items"])

    @Test func isSetForHTTPAndHTTPSURLsInAnyCaseAndFromTheEnvironmentButNotForFiles() throws {
        let config = try loader.load(
            yaml: """
                feeds:
                  - { name: local, adapter: items, url: data/items.json }
                  - { name: file-url, adapter: items, url: "file:///tmp/items.json" }
                  - { name: plain, adapter: items, url: "http://127.0.0.1:8080/items" }
                  - { name: secure, adapter: items, url: "HTTPS://api.example.com/items" }
                  - { name: from-env, adapter: items, url: "${API}" }
                  - { name: named-in-text, adapter: items, url: items-from-https-mirror.json }
                """, path: "feeds.yaml", directory: "/tmp")
        let hints = Dictionary(uniqueKeysWithValues: config.feeds.map { ($0.name, $0.namesRemoteURL) })
        #expect(
            hints == [
                "local": false, "file-url": false, "plain": true, "secure": true, "from-env": true,
                "named-in-text": false,
            ])
    }

    @Test func looksIntoNestedMappingsAndSequences() throws {
        let nested = try #require(try ConfigLoader.compose(yaml: "rates: { max_age: 1d, url: https://x.test/live }"))
        #expect(RemoteURLHint.namesRemoteURL(nested))
        let listed = try #require(try ConfigLoader.compose(yaml: "mirrors: [a.json, [b.json, http://x.test/c]]"))
        #expect(RemoteURLHint.namesRemoteURL(listed))
        let local = try #require(try ConfigLoader.compose(yaml: "rates: { url: live.json }\nmirrors: [a.json]"))
        #expect(!RemoteURLHint.namesRemoteURL(local))
    }
}

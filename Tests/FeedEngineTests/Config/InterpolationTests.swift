import FeedEngine
import FeedKit
import Foundation
import Testing

/// `${VAR}` in values: nested fallbacks are checked like any variable, and a variable inside a
/// URL's path or query is percent-encoded, so a key holding `+ / & =` reaches the server as data.
@Suite("Config: environment variables")
struct InterpolationTests {
    func load(_ url: String, environment: [String: String]) throws -> (url: String, config: FeedsConfig) {
        let loader = ConfigLoader(registry: AdapterRegistry([ItemsAdapter.self]), environment: environment)
        let config = try loader.load(
            yaml: "feeds:\n  - name: one\n    adapter: items\n    url: \"\(url)\"\n", path: "feeds.yaml",
            directory: "/tmp")
        let adapter = try #require(config.feeds.first?.adapter as? ItemsAdapter)
        return (adapter.options.url, config)
    }

    func problems(_ url: String, environment: [String: String]) -> [String] {
        do {
            _ = try load(url, environment: environment)
            return []
        } catch let error as ConfigError {
            return error.problems.map(\.description)
        } catch {
            return ["unexpected: \(error)"]
        }
    }

    @Test func aNestedFallbackWhoseVariableIsUnsetNamesThatVariable() {
        #expect(
            problems("https://h/${A:-${B}}", environment: [:]) == [
                "feeds.yaml:4:10: error: environment variable B is not set (write ${B:-default} for a default)"
            ])
    }

    @Test func aNestedFallbackUsesItsVariableWhenTheFirstIsUnset() throws {
        #expect(try load("${A:-${B}}/items", environment: ["B": "https://b.example"]).url == "https://b.example/items")
        #expect(try load("${A:-${B:-https://c.example}}/items", environment: [:]).url == "https://c.example/items")
    }

    @Test func aVariableInAURLQueryIsPercentEncoded() throws {
        let loaded = try load("https://api.example.com/v1?key=${KEY}", environment: ["KEY": "a+b/c&d=e f"])
        #expect(loaded.url == "https://api.example.com/v1?key=a%2Bb%2Fc%26d%3De%20f")
        #expect(loaded.config.redactor.redact(loaded.url) == "https://api.example.com/v1?key=***")
    }

    @Test func aVariableInAURLPathIsPercentEncoded() throws {
        #expect(
            try load("https://api.example.com/accounts/${ACCOUNT}/items", environment: ["ACCOUNT": "a/b?c"]).url
                == "https://api.example.com/accounts/a%2Fb%3Fc/items")
    }

    /// The URL of a PostgreSQL `store:`, after interpolation.
    func storeURL(_ store: String, environment: [String: String]) throws -> String {
        let loader = ConfigLoader(registry: AdapterRegistry([ItemsAdapter.self]), environment: environment)
        let config = try loader.load(
            yaml: "store: \"\(store)\"\nfeeds:\n  - { name: one, adapter: items, url: a.json }\n", path: "feeds.yaml",
            directory: "/tmp")
        #expect(config.storeLocation.filePath == nil)
        return config.storeLocation.store
    }

    /// A variable in a PostgreSQL URL's user or password is data, so it is percent-encoded; one
    /// holding the host, the port or the whole URL is kept as written.
    @Test(arguments: [
        ("postgres://feedwork:${V}@db:5432/feeds", "p@ss:w/rd", "postgres://feedwork:p%40ss%3Aw%2Frd@db:5432/feeds"),
        ("postgres://${V}@db/feeds", "me@corp", "postgres://me%40corp@db/feeds"),
        ("postgres://u@${V}:5432/feeds", "db.internal", "postgres://u@db.internal:5432/feeds"),
        ("postgres://${V}/feeds", "db:5432", "postgres://db:5432/feeds"),
        ("${V}", "postgres://u:p@db/feeds", "postgres://u:p@db/feeds"),
    ])
    func aVariableInAPostgreSQLStoreIsEncodedOnlyInTheUserOrPassword(store: String, value: String, url: String)
        throws
    {
        #expect(try storeURL(store, environment: ["V": value]) == url)
    }

    @Test func aVariableHoldingTheSchemeAndHostIsKeptAsWritten() throws {
        #expect(
            try load("${BASE}/items?x=1", environment: ["BASE": "https://api.example.com:8443"]).url
                == "https://api.example.com:8443/items?x=1")
        #expect(
            try load("https://${HOST}/items", environment: ["HOST": "api.example.com"]).url
                == "https://api.example.com/items")
    }
}

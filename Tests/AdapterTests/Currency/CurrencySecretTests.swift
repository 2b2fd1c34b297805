import CurrencyFeed
import FeedEngine
import FeedFixtures
import FeedKit
import FeedTestSupport
import Foundation
import Testing

@Suite("Currency key stays secret")
struct CurrencySecretTests {
    let secret = "sekret-123"

    /// Every byte of the store: the database and its write-ahead log.
    func storeBytes(_ harness: FeedHarness) throws -> Data {
        let path = try harness.config().storePath
        return [path, path + "-wal", path + "-shm"].reduce(into: Data()) { bytes, file in
            if let data = FileManager.default.contents(atPath: file) { bytes.append(data) }
        }
    }

    @Test func theKeyReachesTheAPIButNeitherTheStoreNorTheReport() async throws {
        let list = try CurrencyHarness.fixture("list.json")
        let live = try CurrencyHarness.fixture("live.json")
        let server = try CurrencyHarness.api(list: list) { _ in live }
        let harness = try CurrencyHarness.server(server, key: secret)
        let report = try await harness.run()
        #expect(report.feeds.first?.status == .ok)
        #expect(server.requests.first?.query("access_key") == secret)
        let reportJSON = String(decoding: try JSONEncoder().encode(report), as: UTF8.self)
        #expect(!reportJSON.contains(secret))
        let bytes = try storeBytes(harness)
        #expect(!bytes.isEmpty)
        #expect(bytes.range(of: Data(secret.utf8)) == nil)
        let cachedURLs = try await harness.rows("SELECT url FROM _http_cache").map { "\($0["url"] ?? .null)" }
        #expect(cachedURLs.count == 2)
        #expect(cachedURLs.allSatisfy { $0.contains("access_key=***") })
    }

    @Test func theKeyIsNotInTheErrorOfAFailedPassNorInTheStore() async throws {
        let list = try CurrencyHarness.fixture("list.json")
        let server = try CurrencyHarness.api(list: list) { _ in
            Data(#"{"success":false,"error":{"code":101,"type":"invalid_access_key","info":"bad key"}}"#.utf8)
        }
        let harness = try CurrencyHarness.server(server, key: secret)
        let report = try await harness.run()
        let feed = try #require(report.feeds.first)
        #expect(feed.status == .failed)
        let error = try #require(feed.error)
        #expect(error.contains("error 101 (invalid_access_key): bad key"))
        #expect(error.contains("access_key=***"))
        #expect(!error.contains(secret))
        let runErrors = try await harness.rows("SELECT error FROM _runs").map { "\($0["error"] ?? .null)" }
        #expect(runErrors.allSatisfy { !$0.contains(secret) })
        #expect(try storeBytes(harness).range(of: Data(secret.utf8)) == nil)
    }

    @Test func theKeyIsNotInATransportError() async throws {
        let server = try LoopbackServer { _ in .status(503) }
        let harness = try CurrencyHarness.server(server, key: secret)
        let report = try await harness.run()
        let error = try #require(report.feeds.first?.error)
        #expect(!error.contains(secret))
        #expect(try storeBytes(harness).range(of: Data(secret.utf8)) == nil)
    }
}

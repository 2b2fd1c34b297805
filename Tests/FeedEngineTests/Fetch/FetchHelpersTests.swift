import FeedKit
import Foundation
import Testing

@testable import FeedEngine

@Suite("Retry-After, backoff and cache keys")
struct FetchHelpersTests {
    @Test func retryAfterReadsSeconds() {
        #expect(RetryAfter.delay(from: " 120 ", now: Date()) == 120)
    }

    @Test func retryAfterReadsHTTPDates() {
        let now = Date(timeIntervalSince1970: 784_111_777)  // Sun, 06 Nov 1994 08:49:37 GMT
        #expect(RetryAfter.delay(from: "Sun, 06 Nov 1994 08:50:07 GMT", now: now) == 30)
        #expect(RetryAfter.delay(from: "Sun, 06 Nov 1994 08:00:00 GMT", now: now) == 0)
    }

    @Test func retryAfterRejectsGarbage() {
        #expect(RetryAfter.delay(from: "soon", now: Date()) == nil)
        #expect(RetryAfter.delay(from: "-5", now: Date()) == nil)
    }

    @Test func retryAfterIsCapped() {
        let policy = FetchPolicy(retryAfterCap: .seconds(10))
        #expect(Backoff.delay(beforeRetry: 1, policy: policy, retryAfter: 3600) == 10)
    }

    @Test func backoffDoublesWithJitter() {
        let policy = FetchPolicy(backoff: .milliseconds(200))
        #expect(Backoff.delay(beforeRetry: 1, policy: policy, random: { $0.upperBound }) == 0.2)
        #expect(Backoff.delay(beforeRetry: 3, policy: policy, random: { $0.upperBound }) == 0.8)
        #expect(Backoff.delay(beforeRetry: 3, policy: policy, random: { $0.lowerBound }) == 0.4)
        #expect(Backoff.delay(beforeRetry: 40, policy: policy, random: { $0.upperBound }) == Backoff.maximum)
    }

    @Test func cacheKeyIsSHA256OfMethodURLAndBody() {
        let key = (FetchRequest(url: "https://example.com/a")).cacheKey
        #expect(key.count == 64)
        #expect(key != (FetchRequest(url: "https://example.com/b")).cacheKey)
        #expect(key != (FetchRequest(url: "https://example.com/a", method: "POST")).cacheKey)
        #expect(key != (FetchRequest(url: "https://example.com/a", body: Data("x".utf8))).cacheKey)
    }

    @Test func sha256MatchesTheStandardVectors() {
        #expect(
            SHA256.hexDigest(Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(SHA256.hexDigest([UInt8]()) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        let long = Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)
        #expect(SHA256.hexDigest(long) == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }

    @Test func sha256MatchesAReferenceAtEveryLengthAroundThePaddingEdges() throws {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Fixtures/sha256-lengths.txt")
        let vectors = try String(contentsOf: file, encoding: .utf8).split(separator: "\n")
            .filter { !$0.hasPrefix("#") }.map { $0.split(separator: " ") }
        #expect(vectors.count > 100)
        for vector in vectors {
            let length = try #require(Int(vector[0]))
            let message = (0..<length).map { UInt8(($0 * 7 + 3) % 256) }
            #expect(SHA256.hexDigest(message) == vector[1], "\(length) bytes")
            // A sequence without contiguous storage is hashed alike.
            #expect(SHA256.hexDigest(message.lazy.map { $0 }) == vector[1], "\(length) bytes, not contiguous")
        }
    }

    @Test func inMemoryCacheStoresByKey() {
        let cache = InMemoryResponseCache()
        let entry = CachedResponse(
            key: "k", url: "u", status: 200, headers: [:], etag: nil, lastModified: nil, fetchedAt: Date(), body: Data()
        )
        cache.store(entry)
        #expect(cache.cachedResponse(forKey: "k") == entry)
        #expect(cache.cachedResponse(forKey: "other") == nil)
    }
}

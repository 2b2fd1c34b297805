import FeedFixtures
import FeedKit
import FeedTestSupport
import Foundation
import Synchronization
import Testing

@testable import FeedEngine

/// A pass reads its feed's cache entries (without bodies) in one query.
@Suite("Response cache as a pass reads it")
struct PassResponseCacheTests {
    /// A pass's cache on a store's cache that counts the reads made of it.
    final class CountingCache: Sendable {
        let store: any StoreReading
        let reads = Mutex((byKey: 0, byFeed: 0))

        init(_ store: any StoreReading) { self.store = store }

        func passCache(feed: String) -> PassResponseCache {
            PassResponseCache(
                entry: { key, includingBody in
                    self.reads.withLock { $0.byKey += 1 }
                    return try await self.store.cachedResponse(forKey: key, includingBody: includingBody)
                },
                feedEntries: {
                    self.reads.withLock { $0.byFeed += 1 }
                    return try await self.store.cachedResponses(feed: feed)
                },
                othersHold: { try await self.store.holdsCachedResponses(besides: feed) })
        }
    }

    let server: LoopbackServer
    let body = itemsJSON([("k", 1)])

    init() throws {
        let body = self.body
        server = try LoopbackServer { request in
            let etag = "\"\(request.path)\""
            return request.header("If-None-Match") == etag ? .status(304) : .data(body, headers: [("ETag", etag)])
        }
    }

    /// Feeds `a` and `b` (or `a` alone), each on a path of its own, run once.
    func harness(_ driver: HarnessStore, feeds: [String] = ["a", "b"]) async throws -> FeedHarness {
        let lines = feeds.map { "  - { name: \($0), adapter: items, url: \"\(server.url("/" + $0))\" }" }
        let harness = try FeedHarness(
            registry: AdapterRegistry([ItemsAdapter.self]),
            yaml: (["feeds:"] + lines).joined(separator: "\n"), store: driver)
        _ = try await harness.run()
        return harness
    }

    func key(_ path: String) -> String { FetchRequest(url: server.url(path)).cacheKey }

    @Test(arguments: HarnessStore.available)
    func aStoreGivesAFeedsEntriesWithoutTheirBodies(driver: HarnessStore) async throws {
        let harness = try await harness(driver)
        let entries = try await harness.config().readingStore().cachedResponses(feed: "a")
        #expect(Array(entries.keys) == [key("/a")])
        #expect(entries[key("/a")]?.etag == "\"/a\"")
        #expect(entries[key("/a")]?.body == nil)
    }

    @Test(arguments: HarnessStore.available)
    func aPassReadsItsFeedsEntriesOnceForAllItsPages(driver: HarnessStore) async throws {
        let harness = try await harness(driver)
        let store = CountingCache(try harness.config().readingStore())
        let cache = store.passCache(feed: "a")
        for _ in 1...3 {
            #expect(try await cache.cachedResponse(forKey: key("/a"), includingBody: false)?.etag == "\"/a\"")
        }
        #expect(store.reads.withLock { $0 } == (byKey: 0, byFeed: 1))
        withExtendedLifetime(harness) {}
    }

    @Test(arguments: HarnessStore.available)
    func anEntryAnotherFeedStoredIsReadFromTheStore(driver: HarnessStore) async throws {
        let harness = try await harness(driver)
        let store = CountingCache(try harness.config().readingStore())
        let cache = store.passCache(feed: "a")
        #expect(try await cache.cachedResponse(forKey: key("/b"), includingBody: false)?.etag == "\"/b\"")
        #expect(try await cache.cachedResponse(forKey: key("/nowhere"), includingBody: false) == nil)
        #expect(store.reads.withLock { $0 } == (byKey: 2, byFeed: 1))
        withExtendedLifetime(harness) {}
    }

    @Test(arguments: HarnessStore.available)
    func anEntryWithItsBodyIsReadFromTheStore(driver: HarnessStore) async throws {
        let harness = try await harness(driver)
        let store = CountingCache(try harness.config().readingStore())
        let cache = store.passCache(feed: "a")
        #expect(try await cache.cachedResponse(forKey: key("/a"), includingBody: true)?.body == body)
        #expect(store.reads.withLock { $0 } == (byKey: 1, byFeed: 1))
        withExtendedLifetime(harness) {}
    }

    @Test(arguments: HarnessStore.available)
    func aKeyNoFeedStoredIsNotLookedFor(driver: HarnessStore) async throws {
        let harness = try await harness(driver, feeds: ["a"])
        let reading = try harness.config().readingStore()
        #expect(try await reading.holdsCachedResponses(besides: "a") == false)
        #expect(try await reading.holdsCachedResponses(besides: "c") == true)
        let store = CountingCache(reading)
        // Feed a's pass, on a cache holding nothing of other feeds: a page it never stored (as
        // every page of a first pass) is not looked for, with its body or without.
        let own = store.passCache(feed: "a")
        #expect(try await own.cachedResponse(forKey: key("/new"), includingBody: true) == nil)
        #expect(try await own.cachedResponse(forKey: key("/new"), includingBody: false) == nil)
        #expect(try await own.cachedResponse(forKey: key("/a"), includingBody: true)?.body == body)
        #expect(store.reads.withLock { $0 } == (byKey: 1, byFeed: 1))
        // Another feed's pass looks for it: a's entry may be for the same request.
        let other = store.passCache(feed: "c")
        #expect(try await other.cachedResponse(forKey: key("/a"), includingBody: true)?.body == body)
        #expect(try await other.cachedResponse(forKey: key("/new"), includingBody: true) == nil)
        #expect(store.reads.withLock { $0 } == (byKey: 3, byFeed: 2))
        withExtendedLifetime(harness) {}
    }
}

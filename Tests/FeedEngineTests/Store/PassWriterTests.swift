import FeedKit
import FeedStore
import FeedTestSupport
import Foundation
import Testing

@testable import FeedEngine

/// What a pass's writer (``PassWriter``) stores besides rows, on both stores: responses held
/// and stored together, state held with them, each coming back as it was sent.
@Suite struct PassWriterTests {
    /// Runs `body` with an empty store of the kind `kind`, opened as the engine opens it.
    func withStore(_ kind: HarnessStore, _ body: (Store) async throws -> Void) async throws {
        let harness = try FeedHarness(
            registry: AdapterRegistry([ItemsAdapter.self]),
            yaml: "feeds:\n  - { name: a, adapter: items, url: items.json }\n",
            files: ["items.json": Data(#"[{"id": "a", "value": 1}]"#.utf8)], store: kind)
        let engine = try await Engine.open(try harness.config())
        try await body(engine.store)
        try await engine.close()
        withExtendedLifetime(harness) {}
    }

    @Test(arguments: HarnessStore.available)
    func aCachedResponseComesBackByteForByteCompressedOrNot(store: HarnessStore) async throws {
        try await withStore(store) { store in
            let body = Data([0, 1, 2, 255, 10, 13, 92, 0]) + Data(repeating: 65, count: 5000)
            let entry = CachedResponse(
                key: "k", url: "https://api/items", status: 200, headers: ["etag": "\"v1\""], etag: "\"v1\"",
                lastModified: nil, fetchedAt: Date(timeIntervalSince1970: 1_767_225_600.25), body: body)
            let write = CacheWrite(entry)
            #expect(write.compressed != nil)
            try await store.writeSQL { try StoreResponseCache.store([write], feed: "shop", in: $0) }
            let read = try #require(try await store.cachedResponse(forKey: "k", includingBody: true))
            #expect(read.body == body)
            #expect(read.etag == "\"v1\"")
            #expect(read.headers == ["etag": "\"v1\""])
            #expect(read.fetchedAt == Date(timeIntervalSince1970: 1_767_225_600.25))
            #expect(try await store.cachedResponse(forKey: "k", includingBody: false)?.body == nil)
            var copy = entry
            copy.key = "plain"
            copy.body = body.prefix(100)  // too small to be worth deflating
            let plain = CacheWrite(copy)
            #expect(plain.compressed == nil)
            try await store.writeSQL { try StoreResponseCache.store([plain], feed: "shop", in: $0) }
            #expect(try await store.cachedResponse(forKey: "plain", includingBody: true)?.body == body.prefix(100))
        }
    }

    @Test(arguments: HarnessStore.available)
    func aPassesCachedResponsesAreSentTogetherAndEachComesBack(store: HarnessStore) async throws {
        try await withStore(store) { store in
            // More than a statement's worth, and not a multiple of it; keys, headers and bodies
            // with what an array literal escapes.
            let keys = [#"a"b"#, #"back\slash"#, "comma,{brace}", "NULL", ""] + (0..<8).map { "page-\($0)" }
            #expect(keys.count > PassWriter.cacheBatch)
            func entry(_ key: String, _ number: Int) -> CachedResponse {
                CachedResponse(
                    key: key, url: "https://api/items?page=\(number)", status: 200 + number,
                    headers: ["etag": "\"v\(number)\"", "x-note": #"back\slash "quoted""#],
                    etag: number % 2 == 0 ? "\"v\(number)\"" : nil,
                    lastModified: number % 3 == 0 ? "Wed, 21 Oct 2015 07:28:00 GMT" : nil,
                    fetchedAt: Date(timeIntervalSince1970: 1_767_225_600.25 + Double(number)),
                    body: number % 2 == 0
                        ? Data(repeating: UInt8(number), count: 5000) : Data([0, 92, 34, 123, UInt8(number)]))
            }
            let transaction = store.passTransaction(
                feed: "shop", run: 1, stamp: "2026-01-01T00:00:00.000Z", bindings: [])
            for (number, key) in keys.enumerated() {
                let write = CacheWrite(entry(key, number))
                try await transaction.send { try $0.storeCache(write) }
            }
            // A key stored again while it is held: the last one wins.
            let again = CacheWrite(entry("page-0", 99))
            try await transaction.send { try $0.storeCache(again) }
            try await transaction.finish(commit: true)
            #expect(try await store.cachedResponses(feed: "shop").keys.sorted() == keys.sorted())
            for (number, key) in keys.enumerated() {
                let expected = key == "page-0" ? entry(key, 99) : entry(key, number)
                let read = try #require(try await store.cachedResponse(forKey: key, includingBody: true))
                #expect(read.body == expected.body, "\(key)")
                #expect(
                    [read.url, String(read.status), read.etag ?? "-", read.lastModified ?? "-"] == [
                        expected.url, String(expected.status), expected.etag ?? "-", expected.lastModified ?? "-",
                    ], "\(key)")
                #expect(read.headers == expected.headers, "\(key)")
                #expect(read.fetchedAt == expected.fetchedAt, "\(key)")
            }
        }
    }

    @Test(arguments: HarnessStore.available)
    func aPassesStateIsHeldAndTheLastValueOfEachKeyIsCommitted(store: HarnessStore) async throws {
        try await withStore(store) { store in
            try await store.writeSQL { connection in
                try StoreState.set(["old": "kept until removed"], feed: "shop", in: connection)
                try StoreState.set(["other": "x"], feed: "elsewhere", in: connection)
            }
            // More keys than are held before they are sent, values with what an array literal
            // escapes, keys set twice, removed after being set, and one removed that was stored.
            let keys = (0..<(PassWriter.heldLimit + 3)).map { "page.\($0)" }
            let odd = #"{"a":"b\\c","d":[1,2]} NULL, "q""#
            let transaction = store.passTransaction(
                feed: "shop", run: 1, stamp: "2026-01-01T00:00:00.000Z", bindings: [])
            for key in keys {
                try await transaction.send { try $0.setState(key, "first \(key)") }
            }
            for key in keys.prefix(3) {
                try await transaction.send { try $0.setState(key, odd + key) }
            }
            try await transaction.send { try $0.setState("page.5", nil) }
            try await transaction.send { try $0.setState("old", nil) }
            try await transaction.send { try $0.setState("late", "") }
            try await transaction.finish(commit: true)
            var expected = Dictionary(uniqueKeysWithValues: keys.map { ($0, "first \($0)") })
            for key in keys.prefix(3) { expected[key] = odd + key }
            expected["page.5"] = nil
            #expect(try await store.states(feed: "shop", prefix: "page.") == expected)
            #expect(try await store.state(feed: "shop", key: "old") == nil)
            #expect(try await store.state(feed: "shop", key: "late") == "")
            #expect(try await store.state(feed: "elsewhere", key: "other") == "x")
            // A pass rolled back stores none of its held state.
            let failed = store.passTransaction(feed: "shop", run: 2, stamp: "2026-01-01T00:00:01.000Z", bindings: [])
            try await failed.send { try $0.setState("page.0", "rolled back") }
            try await failed.finish(commit: false)
            #expect(try await store.state(feed: "shop", key: "page.0") == odd + "page.0")
        }
    }
}

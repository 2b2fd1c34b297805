import FeedEngine
import FeedKit
import FeedTestSupport
import Foundation
import JSONFeed
import Synchronization
import Testing

@Suite("json adapter: media columns mirrored into the store")
struct JSONMediaTests {
    static let imageA = TestImages.png(width: 3, height: 2, red: 200, green: 10, blue: 10)
    static let imageB = TestImages.jpeg(width: 640, height: 480)
    static let imageC = TestImages.png(width: 5, height: 4, red: 10, green: 10, blue: 200)
    static let svg = Data(#"<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>"#.utf8)

    /// An image server: two URLs of the same PNG, a slow JPEG, HTML served as `image/png`, an
    /// SVG with script, a 50 MB body, and one that answers 404 until `recovered` is set. The
    /// PNG answers 304 to its own ETag.
    final class ImageServer: Sendable {
        /// What the server does, changed by the tests between passes.
        final class State: Sendable {
            let recovered = Mutex(false)
            let withoutJPEG = Mutex(false)
            /// The `If-None-Match` values the PNG was asked with.
            let conditional = Mutex<[String]>([])
        }

        let state = State()
        let server: LoopbackServer

        init() throws {
            let state = self.state
            server = try LoopbackServer { request in Self.reply(request, state: state) }
        }

        func url(_ path: String) -> String { server.url(path) }

        private static func reply(_ request: LoopbackRequest, state: State) -> LoopbackReply {
            let png = [("Content-Type", "image/png")]
            switch request.path {
            case "/ads":
                let ads = [
                    (1, "/img/a.png"), (2, "/img/a-copy.png"), (3, "/img/b.jpg"), (4, "/img/html.png"),
                    (5, "/img/evil.svg"), (6, "/img/huge.png"), (7, "/img/flaky.png"),
                ]
                let shown = state.withoutJPEG.withLock { $0 } ? ads.filter { $0.0 != 3 } : ads
                let host = request.header("Host") ?? ""
                let items = shown.map { #"{"id":\#($0.0),"picture":"http://\#(host)\#($0.1)"}"# }
                return .json("{\"ads\":[" + items.joined(separator: ",") + "]}")
            case "/img/a.png":
                if let tag = request.header("If-None-Match") {
                    state.conditional.withLock { $0.append(tag) }
                    if tag == "\"a\"" { return .status(304, headers: [("ETag", "\"a\"")]) }
                }
                return .data(JSONMediaTests.imageA, headers: png + [("ETag", "\"a\"")])
            case "/img/a-copy.png": return .data(JSONMediaTests.imageA, headers: png)
            case "/img/b.jpg":
                return .data(JSONMediaTests.imageB, headers: [("Content-Type", "image/jpeg")]).delayed(by: .seconds(1))
            case "/img/html.png": return .data(Data("<html><body>not found</body></html>".utf8), headers: png)
            case "/img/evil.svg": return .data(JSONMediaTests.svg, headers: [("Content-Type", "image/svg+xml")])
            case "/img/huge.png":
                var body = Data(JSONMediaTests.imageA.prefix(33))
                body.append(Data(count: 50 * 1024 * 1024))
                return .data(body, headers: png)
            case "/img/flaky.png":
                return state.recovered.withLock { $0 } ? .data(JSONMediaTests.imageC, headers: png) : .status(404)
            default: return .status(404)
            }
        }
    }

    static func harness(_ server: ImageServer, driver: HarnessStore, picture: String = "media") throws -> FeedHarness {
        try JSONFeedTest.harness(
            url: server.url("/ads"),
            """
                records: $.ads
                entity: ad
                write: replace
                key: id
                fields:
                  id: int
                  picture: \(picture)
            """, driver: driver)
    }

    static func mediaRows(_ harness: FeedHarness) async throws -> [[String: FieldValue]] {
        try await harness.rows("SELECT hash, type, size, width, height FROM _media ORDER BY size")
    }

    /// The hash each URL path's row points at, by path.
    static func urlHashes(_ harness: FeedHarness, _ server: ImageServer) async throws -> [String: String] {
        var result: [String: String] = [:]
        for row in try await harness.rows("SELECT url, hash FROM _media_urls") {
            guard case .text(let url)? = row["url"], case .text(let hash)? = row["hash"] else { continue }
            result[String(url.dropFirst(server.url("").count))] = hash
        }
        return result
    }

    @Test(arguments: HarnessStore.available)
    func theRightImagesAreStoredOnceAndTheRestRefusedOrRetried(store: HarnessStore) async throws {
        let server = try ImageServer()
        let harness = try Self.harness(server, driver: store)
        let first = try #require(try await harness.run().feeds.first)
        #expect(first.status == .ok, "\(first)")
        #expect(first.counts.inserted == 7)
        var counts = try #require(first.media)
        #expect(counts.referenced == 7)
        #expect(counts.fetched == 3)
        #expect(counts.failed == 4)
        let notes = first.notes.joined(separator: "\n")
        #expect(
            notes.contains("html.png: the body (served as image/png) is not a JPEG, PNG, GIF or WebP image"), "\(notes)"
        )
        #expect(notes.contains("evil.svg: the body (served as image/svg+xml) is SVG"), "\(notes)")
        #expect(notes.contains("huge.png: response larger than the limit of 5242880 bytes"), "\(notes)")
        #expect(notes.contains("flaky.png: HTTP 404"), "\(notes)")

        // Two URLs, same bytes: one image. Its hash is the SHA-256 of the bytes.
        let hashA = SHA256.hexDigest(Self.imageA)
        let hashB = SHA256.hexDigest(Self.imageB)
        #expect(
            try await Self.mediaRows(harness) == [
                [
                    "hash": .text(hashA), "type": .text("image/png"), "size": .integer(Int64(Self.imageA.count)),
                    "width": .integer(3), "height": .integer(2),
                ],
                [
                    "hash": .text(hashB), "type": .text("image/jpeg"), "size": .integer(Int64(Self.imageB.count)),
                    "width": .integer(640), "height": .integer(480),
                ],
            ])
        #expect(
            try await Self.urlHashes(harness, server) == [
                "/img/a.png": hashA, "/img/a-copy.png": hashA, "/img/b.jpg": hashB,
            ])
        // The rows keep their URLs.
        let pictures = try await harness.rows("SELECT picture FROM ad ORDER BY id").compactMap { $0["picture"] }
        #expect(pictures.first == .text(server.url("/img/a.png")))

        // The 404 recovers; its retry time has come (aged here), and the PNG's check is old, so
        // it is asked for again with its ETag.
        server.state.recovered.withLock { $0 = true }
        try await harness.execute("UPDATE _media_urls SET retry_at = '2000-01-01T00:00:00Z' WHERE failures > 0")
        try await harness.execute("UPDATE _media_urls SET checked_at = '2000-01-01T00:00:00Z' WHERE url LIKE '%/a.png'")
        let second = try #require(try await harness.run().feeds.first)
        #expect(second.status == .ok, "\(second)")
        #expect(second.counts.unchanged == 7)
        counts = try #require(second.media)
        #expect(counts.fetched == 1)
        #expect(counts.unchanged == 1)
        #expect(counts.failed == 3)
        #expect(counts.skipped == 2)
        #expect(server.state.conditional.withLock { $0 } == ["\"a\""])
        let hashes = try await Self.urlHashes(harness, server)
        #expect(hashes["/img/flaky.png"] == SHA256.hexDigest(Self.imageC))
        #expect(try await Self.mediaRows(harness).count == 3)

        // A third pass soon after tries nothing: the failures wait for their (doubled) retry time.
        let third = try #require(try await harness.run().feeds.first)
        #expect(third.media?.skipped == 7)
        #expect(third.media?.failed == 0)
    }

    @Test(arguments: HarnessStore.available)
    func anImageNoRowNamesAnyMoreIsRemovedByGC(store: HarnessStore) async throws {
        let server = try ImageServer()
        let harness = try Self.harness(server, driver: store)
        _ = try await harness.run()
        #expect(try await Self.mediaRows(harness).count == 2)
        let config = try harness.config()
        #expect(try await config.collectMediaGarbage(grace: .seconds(0)) == "no unreferenced media")
        // The ad with the JPEG is gone from the API, so from the rows (the feed replaces them).
        server.state.withoutJPEG.withLock { $0 = true }
        let second = try #require(try await harness.run().feeds.first)
        #expect(second.counts.deleted == 1, "\(second)")
        #expect(second.media?.referenced == 6)
        // Within the grace period the image stays; after it, it goes.
        #expect(try await config.collectMediaGarbage(grace: .hours(1)) == "no unreferenced media")
        let removed = try await config.collectMediaGarbage(grace: .seconds(0))
        #expect(removed.hasPrefix("removed 1 unreferenced media"), "\(removed)")
        #expect(try await Self.mediaRows(harness).map { $0["hash"] } == [.text(SHA256.hexDigest(Self.imageA))])
    }

    @Test func aStringFieldOptsInWithMediaTrue() throws {
        let server = try ImageServer()
        let harness = try Self.harness(server, driver: .sqlite, picture: "{ type: string, media: true }")
        let schema = try #require(try harness.config().feeds.first?.adapter.entities.first?.schema)
        #expect(schema.mediaColumns == ["picture"])
        #expect(schema.columns.first { $0.name == "picture" }?.type == .text)
        let plain = try Self.harness(server, driver: .sqlite, picture: "string")
        #expect(try plain.config().feeds.first?.adapter.entities.first?.schema.mediaColumns == [])
    }
}

@Suite("json adapter: credentials for mirrored images")
struct JSONMediaAuthTests {
    @Test func theFeedsTokenGoesToItsOwnOriginOnly() async throws {
        let image = JSONMediaTests.imageA
        let elsewhere = try LoopbackServer { _ in .data(image, headers: [("Content-Type", "image/png")]) }
        let foreign = elsewhere.url("/b.png")
        let server = try LoopbackServer { request in
            guard request.path == "/ads" else { return .data(image, headers: [("Content-Type", "image/png")]) }
            let own = "http://\(request.header("Host") ?? "")/a.png"
            return .json(#"[{"id":1,"picture":"\#(own)"},{"id":2,"picture":"\#(foreign)"}]"#)
        }
        let harness = try JSONFeedTest.harness(
            url: server.url("/ads"),
            """
                auth: { type: bearer, token: t0ken }
                entity: ad
                key: id
                fields: { id: int, picture: media }
            """)
        let report = try #require(try await harness.run().feeds.first)
        #expect(report.media?.fetched == 2, "\(report)")
        let own = server.requests.filter { $0.path == "/a.png" }.map { $0.header("Authorization") }
        #expect(own == ["Bearer t0ken"])
        #expect(elsewhere.requests.map { $0.header("Authorization") } == [nil])
    }
}

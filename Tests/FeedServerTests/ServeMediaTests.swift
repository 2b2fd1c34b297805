import FeedEngine
import FeedKit
import FeedServer
import FeedTestSupport
import Foundation
import JSONFeed
import Testing

/// Mirrored images served from the store: `/media/HASH` and the cards that show them.
@Suite struct ServeMediaTests {
    /// A 1x1 PNG's bytes (signature and IHDR are all the store checks).
    static let png =
        Data([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13] + Array("IHDR".utf8))
        + Data([0, 0, 0, 1, 0, 0, 0, 1, 8, 2, 0, 0, 0, 0x90, 0x77, 0x53, 0xde])

    /// A store of two ads: one whose picture is mirrored, one whose picture answers 404.
    static func harness() async throws -> (FeedHarness, LoopbackServer) {
        try await store(field: "picture: { type: media, role: image }") { host in
            #"[{"id":1,"title":"Lamp","picture":"http://\#(host)/a.png"},"#
                + #"{"id":2,"title":"Chair","picture":"http://\#(host)/gone.png"}]"#
        }
    }

    /// A store of the ads `ads` lists (given the server's host), with `field` besides their id
    /// and title: `/a.png` is a PNG, any other image a 404.
    static func store(field: String, ads: @escaping @Sendable (String) -> String) async throws -> (
        FeedHarness, LoopbackServer
    ) {
        let server = try LoopbackServer { request in
            switch request.path {
            case "/ads": return .json(ads(request.header("Host") ?? ""))
            case "/a.png": return .data(Self.png, headers: [("Content-Type", "image/png")])
            default: return .status(404)
            }
        }
        let harness = try FeedHarness(
            registry: AdapterRegistry([JSONAdapter.self]),
            yaml: """
                feeds:
                  - name: ads
                    adapter: json
                    url: \(server.url("/ads"))
                    retries: 0
                    entity: ad
                    key: id
                    fields:
                      id: int
                      title: { type: string, role: title }
                      \(field)
                """)
        _ = try await harness.run()
        return (harness, server)
    }

    @Test func anImageIsServedByItsHashWithItsTypeAndLongCachingSandboxed() async throws {
        let (harness, server) = try await Self.harness()
        let hash = SHA256.hexDigest(Self.png)
        try await ServedStore.serve(harness) { client in
            let response = try await client.execute(uri: "/media/\(hash)", method: .get)
            #expect(response.status == .ok)
            #expect(Data(response.body.readableBytesView) == Self.png)
            #expect(response.headers["content-type"] == "image/png")
            #expect(response.headers["x-content-type-options"] == "nosniff")
            #expect(response.headers["cache-control"] == "public, max-age=31536000, immutable")
            #expect(response.headers["content-security-policy"] == "sandbox")
            for missing in [String(repeating: "0", count: 64), "not-a-hash", hash.uppercased()] {
                #expect(try await client.execute(uri: "/media/\(missing)", method: .get).status == .notFound)
            }
        }
        withExtendedLifetime(server) {}
    }

    @Test func cardsShowTheMirroredImageOrAPlaceholderWithTheURL() async throws {
        let (harness, server) = try await Self.harness()
        let hash = SHA256.hexDigest(Self.png)
        try await ServedStore.serve(harness) { client in
            let page = ServedStore.text(try await client.execute(uri: "/entities/ad", method: .get))
            #expect(page.contains("<img src=\"/media/\(hash)\""), "\(page)")
            #expect(page.contains("<small>\(server.url("/gone.png"))</small>"), "\(page)")
            // Never the remote URL as an image: offline it would be a broken-image box.
            #expect(!page.contains("<img src=\"http"))
            let record = ServedStore.text(try await client.execute(uri: "/entities/ad/records/ads/2", method: .get))
            #expect(record.contains("class=\"placeholder\""), "\(record)")
            let mirrored = ServedStore.text(
                try await client.execute(uri: "/entities/ad/records/ads/1", method: .get))
            #expect(mirrored.contains("<img class=\"media\" src=\"/media/\(hash)\""), "\(mirrored)")
        }
    }

    @Test func theOverviewShowsEachFeedsMedia() async throws {
        let (harness, server) = try await Self.harness()
        try await ServedStore.serve(harness) { client in
            let page = ServedStore.text(try await client.execute(uri: "/", method: .get))
            #expect(page.contains("<td class=\"media\">1/2 mirrored, 1 failed, "), "\(page)")
        }
        withExtendedLifetime(server) {}
    }

    @Test func aRecordPageShowsTheImagesOfItsLists() async throws {
        let (harness, server) = try await Self.store(
            field: "photos: { type: list, fields: { url: media, caption: string } }"
        ) { host in
            #"[{"id":1,"title":"Lamp","photos":[{"url":"http://\#(host)/a.png","caption":"lit"},"#
                + #"{"url":"http://\#(host)/gone.png","caption":"off"}]}]"#
        }
        let hash = SHA256.hexDigest(Self.png)
        try await ServedStore.serve(harness) { client in
            let record = ServedStore.text(try await client.execute(uri: "/entities/ad/records/ads/1", method: .get))
            #expect(record.contains("<h2>ad__photos</h2>"), "\(record)")
            #expect(record.contains("<img class=\"media\" src=\"/media/\(hash)\""), "\(record)")
            #expect(record.contains("<td>\(server.url("/gone.png"))<div class=\"placeholder\">"), "\(record)")
            #expect(record.contains("<td>lit</td>"), "\(record)")
            #expect(!record.contains("<img class=\"media\" src=\"http"))
        }
        withExtendedLifetime(server) {}
    }
}

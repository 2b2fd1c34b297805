import FeedEngine
import FeedKit
import FeedTestSupport
import Foundation
import JSONFeed
import Synchronization
import Testing

/// Media columns of a record's nested lists (child tables): mirrored like the entity's own,
/// exported with their hashes and files, and kept by `gc` while a row names them.
@Suite("json adapter: media columns of child lists")
struct JSONMediaListTests {
    static let front = JSONMediaTests.imageA
    static let back = JSONMediaTests.imageB
    static let extra = JSONMediaTests.imageC

    /// Two ads: the first with two photos (objects with a URL and a caption) and a gallery (a
    /// list of URLs), the second with the first's front photo again. `withoutGallery` drops the
    /// gallery, as an API whose ad lost a picture.
    final class Server: Sendable {
        final class State: Sendable {
            let withoutGallery = Mutex(false)
        }

        let state = State()
        let loopback: LoopbackServer

        init() throws {
            let state = self.state
            loopback = try LoopbackServer { request in
                let png = [("Content-Type", "image/png")]
                switch request.path {
                case "/ads":
                    let host = "http://\(request.header("Host") ?? "")"
                    let gallery = state.withoutGallery.withLock { $0 } ? "" : #""\#(host)/extra.png""#
                    return .json(
                        #"[{"id":1,"photos":[{"url":"\#(host)/front.png","caption":"front"},"#
                            + #"{"url":"\#(host)/back.jpg","caption":"back"}],"gallery":[\#(gallery)]},"#
                            + #"{"id":2,"photos":[{"url":"\#(host)/front.png","caption":"same"}],"gallery":[]}]"#)
                case "/front.png": return .data(JSONMediaListTests.front, headers: png)
                case "/back.jpg": return .data(JSONMediaListTests.back, headers: [("Content-Type", "image/jpeg")])
                case "/extra.png": return .data(JSONMediaListTests.extra, headers: png)
                default: return .status(404)
                }
            }
        }
    }

    static func harness(_ server: Server, driver: HarnessStore) throws -> FeedHarness {
        try JSONFeedTest.harness(
            url: server.loopback.url("/ads"),
            """
                entity: ad
                write: replace
                key: id
                fields:
                  id: int
                  photos:
                    type: list
                    fields: { url: media, caption: string }
                  gallery: { type: list, of: media }
            """, driver: driver)
    }

    @Test func theListsMediaColumnsAreInTheSchema() throws {
        let harness = try Self.harness(try Server(), driver: .sqlite)
        let schema = try #require(try harness.config().feeds.first?.adapter.entities.first?.schema)
        #expect(schema.mediaColumns == [])
        #expect(schema.mediaTables.map(\.name) == ["ad__photos", "ad__gallery"])
        #expect(schema.mediaTables.map(\.columns) == [["url"], ["value"]])
    }

    @Test(arguments: HarnessStore.available)
    func aListsImagesAreMirroredExportedAndKeptWhileNamed(store: HarnessStore) async throws {
        let server = try Server()
        let harness = try Self.harness(server, driver: store)
        let first = try #require(try await harness.run().feeds.first)
        #expect(first.status == .ok, "\(first)")
        #expect(first.media?.referenced == 3, "\(first)")
        #expect(first.media?.fetched == 3, "\(first.notes)")
        let (front, back, extra) = (
            SHA256.hexDigest(Self.front), SHA256.hexDigest(Self.back), SHA256.hexDigest(Self.extra)
        )
        let stored = JSONFeedTest.texts(try await harness.rows("SELECT hash FROM _media ORDER BY hash"), "hash")
        #expect(stored == [front, back, extra].sorted())

        // Export: the list's rows carry the hash; with --media, the file's path.
        let exporter = try Exporter(config: try harness.config())
        let output = ExportOutput.memory()
        var request = ExportRequest(entity: "ad__photos")
        request.order = [.ascending("_key"), .ascending("_position")]
        try await exporter.export(request, format: .ndjson, to: output)
        let photos = try JSONMediaExportTests.objects(output.bytes)
        #expect(photos.map { $0["url_media"] as? String } == [front, back, front])
        let folder = harness.directory.appendingPathComponent("out")
        let manifest = try await exporter.exportAll(format: .ndjson, to: folder.path, media: true)
        #expect(manifest.media == 3)
        let gallery = try JSONMediaExportTests.objects(
            try Data(contentsOf: folder.appendingPathComponent("ad__gallery.ndjson")))
        #expect(gallery.map { $0["value_path"] as? String } == ["media/\(extra).png"])
        #expect(try Data(contentsOf: folder.appendingPathComponent("media/\(back).jpg")) == Self.back)

        // gc keeps what a list's row names, and removes it once no row does.
        let config = try harness.config()
        #expect(try await config.collectMediaGarbage(grace: .seconds(0)) == "no unreferenced media")
        server.state.withoutGallery.withLock { $0 = true }
        let second = try #require(try await harness.run().feeds.first)
        #expect(second.status == .ok, "\(second)")
        #expect(second.media?.referenced == 2)
        let removed = try await config.collectMediaGarbage(grace: .seconds(0))
        #expect(removed.hasPrefix("removed 1 unreferenced media"), "\(removed)")
        let left = JSONFeedTest.texts(try await harness.rows("SELECT hash FROM _media ORDER BY hash"), "hash")
        #expect(left == [front, back].sorted())
    }
}

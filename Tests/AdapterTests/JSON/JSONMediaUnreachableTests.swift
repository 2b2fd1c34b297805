import FeedEngine
import FeedKit
import FeedTestSupport
import Foundation
import JSONFeed
import Testing

/// An image that cannot be reached (its URL, or a redirect of it, names a closed port) fails
/// alone: the pass's memory of unreachable origins holds the origin that failed, after
/// redirects, not the host of every image.
@Suite("json adapter: an unreachable image among reachable ones")
struct JSONMediaUnreachableTests {
    /// The good images, each a PNG of its own.
    static let goodImages = 8

    /// `/ads`: an image naming 127.0.0.1 port 1 (closed), one redirected there, and the good
    /// ones on the server itself (answered after 300 ms, so the bad ones have failed before
    /// most of them are asked for).
    static func server() throws -> LoopbackServer {
        try LoopbackServer { request in
            let host = "http://\(request.header("Host") ?? "")"
            if request.path == "/ads" {
                let pictures =
                    ["http://127.0.0.1:1/direct.png", "\(host)/bad.png"]
                    + (0..<goodImages).map { "\(host)/img/\($0).png" }
                let ads = pictures.enumerated().map { #"{"id":\#($0.offset),"picture":"\#($0.element)"}"# }
                return .json("{\"ads\":[" + ads.joined(separator: ",") + "]}")
            }
            if request.path == "/bad.png" { return .redirect(to: "http://127.0.0.1:1/moved.png") }
            guard request.path.hasPrefix("/img/"), let number = UInt8(request.path.dropFirst(5).dropLast(4)) else {
                return .status(404)
            }
            let png = TestImages.png(width: 2, height: 2, red: number * 20, green: 0, blue: 0)
            return .data(png, headers: [("Content-Type", "image/png")]).delayed(by: .milliseconds(300))
        }
    }

    @Test(arguments: HarnessStore.available)
    func onlyTheUnreachableImagesFail(store: HarnessStore) async throws {
        let server = try Self.server()
        defer { server.stop() }
        let harness = try JSONFeedTest.harness(
            url: server.url("/ads"),
            """
                records: $.ads
                entity: ad
                key: id
                fields:
                  id: int
                  picture: media
            """, driver: store)
        let report = try #require(try await harness.run().feeds.first)
        #expect(report.status == .ok, "\(report)")
        let counts = try #require(report.media)
        #expect(counts.fetched == Self.goodImages, "\(report.notes)")
        #expect(counts.failed == 2, "\(report.notes)")
        let failed = try await harness.rows("SELECT url FROM _media_urls WHERE failures > 0 ORDER BY url")
        #expect(
            failed.compactMap { $0["url"] } == [.text("http://127.0.0.1:1/direct.png"), .text(server.url("/bad.png"))])
        #expect(try await harness.rows("SELECT hash FROM _media").count == Self.goodImages)
    }
}

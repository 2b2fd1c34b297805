import FeedEngine
import FeedKit
import FeedStoreSQLite
import FeedTestSupport
import Foundation
import Testing

/// `feedwork run` killed while it mirrors a feed's images: the rows are the pass's, every URL
/// that names a hash names an image the store holds whole, and no file is left beside the store.
@Suite("feedwork run: killed while mirroring media")
struct MediaKillTests {
    /// 40 distinct PNGs (a pixel row of a colour each), each answered after 300 ms.
    static func image(_ number: Int) -> Data {
        var png = Data([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13])
        png.append(Data("IHDR".utf8))
        png.append(contentsOf: [0, 0, 0, UInt8(number + 1), 0, 0, 0, 1, 8, 2, 0, 0, 0])
        png.append(Data(repeating: UInt8(number), count: 20_000))
        return png
    }

    /// The listing of 40 ads and their images, each image answered after 300 ms.
    static func server() throws -> LoopbackServer {
        try LoopbackServer { request in
            if request.path == "/ads" {
                let host = request.header("Host") ?? ""
                let ads = (0..<40).map { #"{"id":\#($0),"picture":"http://\#(host)/img/\#($0).png"}"# }
                return .json("[" + ads.joined(separator: ",") + "]")
            }
            guard let number = Int(request.path.dropFirst(5).dropLast(4)) else { return .status(404) }
            return .data(Self.image(number), headers: [("Content-Type", "image/png")]).delayed(by: .milliseconds(300))
        }
    }

    /// Writes feeds.yaml (after `storeLines`) and runs `feedwork run`, killed once the listing
    /// and 11 images have been asked for: images are under way.
    static func killWhileMirroring(in directory: URL, server: LoopbackServer, storeLines: String = "") async throws {
        let yaml = """
            \(storeLines)feeds:
              - name: ads
                adapter: json
                url: \(server.url("/ads"))
                entity: ad
                key: id
                fields:
                  id: int
                  picture: media
            """
        try Data(yaml.utf8).write(to: directory.appendingPathComponent("feeds.yaml"))
        let killed = try FeedworkProcess.startCollecting(["run"], in: directory)
        try await server.waitForRequests(12)
        killed.send(SIGKILL)
        #expect(await killed.finish().status != 0)
    }

    @Test func noHalfImageAndNoReferenceToMissingBytes() async throws {
        let directory = try FeedworkProcess.makeFolder("media-kill")
        let server = try Self.server()
        try await Self.killWhileMirroring(in: directory, server: server)

        let store = Store(try SQLiteStore(path: directory.appendingPathComponent("feeds.sqlite").path))
        #expect(try await store.query("PRAGMA integrity_check", arguments: []).first?.values.first == .text("ok"))
        #expect(try await store.query("SELECT count(*) AS n FROM ad", arguments: []).first?["n"] == .integer(40))
        let dangling = try await store.query(
            "SELECT count(*) AS n FROM _media_urls u WHERE hash IS NOT NULL AND NOT EXISTS (SELECT 1 FROM _media m WHERE m.hash = u.hash)",
            arguments: [])
        #expect(dangling.first?["n"] == .integer(0))
        let stored = try await store.query("SELECT hash, size, hex(bytes) AS hex FROM _media", arguments: [])
        #expect(!stored.isEmpty && stored.count < 40, "\(stored.count) images before the kill")
        for row in stored {
            guard case .text(let hash)? = row["hash"], case .text(let hex)? = row["hex"] else {
                Issue.record("a row without its hash or bytes")
                continue
            }
            let bytes = Data(
                stride(from: 0, to: hex.utf8.count, by: 2).compactMap { offset -> UInt8? in
                    let start = hex.index(hex.startIndex, offsetBy: offset)
                    return UInt8(hex[start..<hex.index(start, offsetBy: 2)], radix: 16)
                })
            #expect(SHA256.hexDigest(bytes) == hash)
            #expect(row["size"] == .integer(Int64(bytes.count)))
        }
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        #expect(files.allSatisfy { $0 == "feeds.yaml" || $0.hasPrefix("feeds.sqlite") }, "\(files)")

        // The next run mirrors the rest.
        let next = try await FeedworkProcess.run(["run"], in: directory)
        #expect(next.status == 0, "\(next.stdout)\(next.stderr)")
        #expect(try await store.query("SELECT count(*) AS n FROM _media", arguments: []).first?["n"] == .integer(40))
    }

    @Test func onPostgreSQLTooNoURLPointsAtMissingBytes() async throws {
        guard let (url, schema) = PostgresStoreCommandTests.server() else { return }
        defer { _ = try? PostgresStoreCommandTests.psql(url, "DROP SCHEMA \(schema) CASCADE") }
        let directory = try FeedworkProcess.makeFolder("media-kill-postgres")
        let server = try Self.server()
        try await Self.killWhileMirroring(
            in: directory, server: server, storeLines: "store: \(url)\nschema: \(schema)\n")
        func value(_ sql: String) throws -> String { try PostgresStoreCommandTests.psql(url, sql) }
        #expect(try value("SELECT count(*) FROM \(schema).ad") == "40")
        let dangling = """
            SELECT count(*) FROM \(schema)._media_urls u WHERE hash IS NOT NULL
            AND NOT EXISTS (SELECT 1 FROM \(schema)._media m WHERE m.hash = u.hash)
            """
        #expect(try value(dangling) == "0")
        let stored = Int(try value("SELECT count(*) FROM \(schema)._media")) ?? 0
        #expect(stored > 0 && stored < 40, "\(stored) images before the kill")
        let whole =
            "SELECT count(*) FROM \(schema)._media WHERE encode(sha256(bytes), 'hex') = hash AND length(bytes) = size"
        #expect(try value(whole) == String(stored))

        let next = try await FeedworkProcess.run(["run"], in: directory)
        #expect(next.status == 0, "\(next.stdout)\(next.stderr)")
        #expect(try value("SELECT count(*) FROM \(schema)._media") == "40")
    }
}

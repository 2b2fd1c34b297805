import FeedEngine
import FeedKit
import FeedTestSupport
import Foundation
import JSONFeed
import Testing

@Suite("export of media columns")
struct JSONMediaExportTests {
    /// The NDJSON lines of `data` as objects.
    static func objects(_ data: some Sequence<UInt8>) throws -> [[String: Any]] {
        try String(decoding: Array(data), as: UTF8.self).split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
    }

    @Test(arguments: HarnessStore.available)
    func rowsCarryTheHashAndWithMediaTheFileBesideThem(store: HarnessStore) async throws {
        let server = try JSONMediaTests.ImageServer()
        let harness = try JSONMediaTests.harness(server, driver: store)
        _ = try await harness.run()
        let exporter = try Exporter(config: try harness.config())
        let hashA = SHA256.hexDigest(JSONMediaTests.imageA)

        // Without --media: the hash next to the URL, null where the image is not mirrored.
        let output = ExportOutput.memory()
        var request = ExportRequest(entity: "ad")
        request.order = [.ascending("id")]
        try await exporter.export(request, format: .ndjson, to: output)
        let rows = try Self.objects(output.bytes)
        #expect(rows.count == 7)
        #expect(rows[0]["picture_media"] as? String == hashA)
        #expect(rows[1]["picture_media"] as? String == hashA)
        #expect(rows[3]["picture_media"] is NSNull)
        #expect(rows[0]["picture_path"] == nil)

        // With --media: the files by hash, and each row's path to its file.
        let folder = harness.directory.appendingPathComponent("out")
        let manifest = try await exporter.exportAll(format: .ndjson, to: folder.path, media: true)
        #expect(manifest.media == 2)
        let exported = try Self.objects(try Data(contentsOf: folder.appendingPathComponent("ad.ndjson")))
            .sorted { ($0["id"] as? Int ?? 0) < ($1["id"] as? Int ?? 0) }
        #expect(exported[0]["picture_path"] as? String == "media/\(hashA).png")
        #expect(exported[2]["picture_path"] as? String == "media/\(SHA256.hexDigest(JSONMediaTests.imageB)).jpg")
        #expect(exported[4]["picture_path"] is NSNull)
        let file = folder.appendingPathComponent("media/\(hashA).png")
        #expect(try Data(contentsOf: file) == JSONMediaTests.imageA)
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("media").path)
        #expect(files.count == 2)
    }
}

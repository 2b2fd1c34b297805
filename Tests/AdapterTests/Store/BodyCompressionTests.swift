import Foundation
import Testing

@testable import FeedEngine

/// Cached bodies are kept compressed with Zstandard; those an earlier Feedwork kept with zlib
/// still read.
@Suite("Store: compressed cache bodies")
struct BodyCompressionTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../Fixtures/cache").standardizedFileURL

    func fixture(_ name: String) throws -> Data {
        try Data(contentsOf: Self.fixtures.appendingPathComponent(name))
    }

    @Test func aBodyIsKeptAsAZstandardFrameAndReadsBack() throws {
        let body = try fixture("items.json")
        let compressed = try #require(BodyCompression.compress(body))
        #expect(Array(compressed.prefix(4)) == [0x28, 0xB5, 0x2F, 0xFD])
        #expect(compressed.count < body.count / 4)
        #expect(BodyCompression.decompress(compressed, size: body.count) == body)
    }

    @Test func aBodyAnEarlierFeedworkKeptWithZlibReads() throws {
        let body = try fixture("items.json")
        #expect(BodyCompression.decompress(try fixture("items.json.zlib"), size: body.count) == body)
    }

    @Test func aDamagedBodyReadsAsNothing() throws {
        let body = try fixture("items.json")
        let compressed = try #require(BodyCompression.compress(body))
        #expect(BodyCompression.decompress(compressed.prefix(compressed.count - 5), size: body.count) == nil)
        #expect(BodyCompression.decompress(compressed, size: body.count + 1) == nil)
        #expect(BodyCompression.decompress(Data("not compressed".utf8), size: body.count) == nil)
    }

    @Test func aBodyTooSmallToGainIsKeptAsItIs() {
        #expect(BodyCompression.compress(Data(#"{"id":1}"#.utf8)) == nil)
    }
}

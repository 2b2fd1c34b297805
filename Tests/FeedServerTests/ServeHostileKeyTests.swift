import FeedEngine
import FeedKit
import FeedServer
import FeedTestSupport
import Foundation
import JSONFeed
import Testing

/// Record links for keys holding any character: each link of an entity's page opens the record
/// whose key it was made from, on the page and in the API.
@Suite struct ServeHostileKeyTests {
    /// Every printable ASCII character that is not a letter or a digit, a few beyond ASCII, and
    /// whole keys that look like paths or percent escapes.
    static let keys: [String] = {
        let punctuation = (0x20...0x7E).map { Character(UnicodeScalar(UInt8($0))) }
            .filter { !$0.isLetter && !$0.isNumber }
        let others: [Character] = ["é", "ß", "日", "🙂", "\u{7F}", "\u{A0}"]
        return (punctuation + others).map { "k\($0)k" } + [
            "a/b", "a%2Fb", "%", "%25", "%zz", " ", "+", "?x=1", "#top", "..x", "a//b", "/", "\\", "é",
        ]
    }()

    @Test func everyRecordLinkOpensItsOwnRecord() async throws {
        let items = Self.keys.enumerated().map { index, key in
            ["id": key, "label": "label-\(index)-end"]
        }
        let body = try JSONSerialization.data(withJSONObject: ["items": items])
        let yaml = """
            feeds:
              - { name: f, adapter: json, url: items.json, records: items, entity: item, key: id,
                  fields: { id: string, label: string } }
            """
        let harness = try FeedHarness(
            registry: AdapterRegistry([JSONAdapter.self]), yaml: yaml, files: ["items.json": body])
        _ = try await harness.run()
        try await ServedStore.serve(harness) { client in
            let page = ServedStore.text(try await client.execute(uri: "/entities/item?limit=500", method: .get))
            let links = Self.recordLinks(page)
            #expect(links.count == Self.keys.count, "one link per record: \(links.count) of \(Self.keys.count)")
            var opened: Set<String> = []
            for link in links {
                let answer = try await client.execute(uri: link, method: .get)
                let html = ServedStore.text(answer)
                #expect(answer.status == .ok, "\(link): \(answer.status)")
                let labels = Self.labels(in: html)
                #expect(labels.count == 1, "\(link) shows \(labels)")
                opened.formUnion(labels)
            }
            #expect(opened.count == Self.keys.count, "every record opened once: \(opened.count) of \(Self.keys.count)")
            for (index, key) in Self.keys.enumerated() {
                let uri = "/api/entities/item/records/f/" + Self.encoded(key)
                let answer = try await client.execute(uri: uri, method: .get)
                #expect(answer.status == .ok, "key \(key.debugDescription): \(answer.status)")
                #expect(
                    Self.labels(in: ServedStore.text(answer)) == ["label-\(index)-end"], "key \(key.debugDescription)")
            }
        }
    }

    @Test func aSegmentThatIsNotPercentEncodedUTF8IsABadRequest() async throws {
        let harness = try await ServedStore.harness(.sqlite)
        try await ServedStore.serve(harness) { client in
            let answer = try await client.execute(uri: "/api/entities/classified/records/ads/%FF", method: .get)
            #expect(answer.status == .badRequest, "\(ServedStore.text(answer))")
        }
    }

    @Test(arguments: [
        "/feeds/ads%00", "/feeds/ads%00x", "/api/feeds/ads%00/runs", "/api/feeds/ads%00/rejects",
        "/entities/classified%00", "/api/entities/classified/records/ads/x%00", "/api/feeds/ads/runs?before=1%00",
    ])
    func aNULByteInAPathOrQueryIsABadRequest(uri: String) async throws {
        let harness = try await ServedStore.harness(.sqlite)
        try await ServedStore.serve(harness) { client in
            let answer = try await client.execute(uri: uri, method: .get)
            #expect(answer.status == .badRequest, "\(uri): \(answer.status) \(ServedStore.text(answer))")
            #expect(ServedStore.text(answer).contains("NUL"), "\(uri)")
        }
    }

    /// The hrefs of the page's record links.
    static func recordLinks(_ page: String) -> [String] {
        let pattern = /href="(\/entities\/item\/records\/[^"]*)"/
        return page.matches(of: pattern).map { String($0.output.1) }
    }

    static func labels(in text: String) -> Set<String> {
        Set(text.matches(of: /label-[0-9]+-end/).map { String($0.output) })
    }

    /// Every byte but ASCII letters and digits percent-encoded.
    static func encoded(_ text: String) -> String {
        text.utf8.map { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                ? String(UnicodeScalar(byte)) : String(format: "%%%02X", byte)
        }.joined()
    }
}

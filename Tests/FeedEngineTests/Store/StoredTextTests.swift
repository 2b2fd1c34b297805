import FeedEngine
import FeedFixtures
import FeedKit
import FeedTestSupport
import Foundation
import Testing

/// Texts reach SQLite through a scratch buffer on the write path; whatever their size or
/// content, they must be stored and looked up byte for byte.
@Suite("Stored texts")
struct StoredTextTests {
    static let ids = [
        "plain", "é ü 漢字 🙂", "with\u{0}nul", "a\"quote", String(repeating: "x", count: 100_000),
        String(repeating: "y", count: 40_000), String(repeating: "z", count: 40_000),
    ]

    func harness() throws -> FeedHarness {
        let items = Self.ids.enumerated().map { ["id": $1, "value": $0] as [String: Any] }
        return try FeedHarness(
            registry: AdapterRegistry([ItemsAdapter.self]),
            yaml: "feeds:\n  - { name: items, adapter: items, url: items.json }\n",
            files: ["items.json": try JSONSerialization.data(withJSONObject: items)])
    }

    @Test func textsOfAnySizeAndContentAreStoredByteForByte() async throws {
        let harness = try harness()
        _ = try await harness.run()
        // As blobs, so a NUL inside a text does not end it when read back.
        let rows = try await harness.rows(
            "SELECT CAST(id AS BLOB) AS id, CAST(_key AS BLOB) AS _key FROM item ORDER BY value")
        try #require(rows.count == Self.ids.count)
        for (row, id) in zip(rows, Self.ids) {
            for column in ["id", "_key"] {
                guard case .text(let stored)? = row[column] else {
                    Issue.record("\(column) of the \(id.utf8.count)-byte id is not a text")
                    continue
                }
                // Compared byte for byte, with a short message (not 100,000 bytes) when they differ.
                let identical = stored.utf8.elementsEqual(id.utf8)
                #expect(identical, "\(column): \(stored.utf8.count) bytes stored for \(id.utf8.count)")
            }
        }
    }

    @Test func aSecondPassFindsEveryTextKeyUnchanged() async throws {
        let harness = try harness()
        _ = try await harness.run()
        let second = try #require(try await harness.run().feeds.first)
        #expect((second.counts.inserted, second.counts.unchanged) == (0, Self.ids.count))
        #expect(try await harness.count("item") == Self.ids.count)
    }
}

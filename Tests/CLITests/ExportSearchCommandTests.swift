import Foundation
import Testing

/// `feedwork export ENTITY --search "words"`, on the classified ads of the repository's
/// feeds.yaml, whose adapter declares `search: [title, description]`.
@Suite("feedwork export --search")
struct ExportSearchCommandTests {
    /// A folder holding the default feeds.yaml and the classified fixtures, its feed run once.
    static func ranFolder() async throws -> URL {
        let directory = try FeedworkProcess.makeFolder("search")
        let fixtures = "Adapters/Classified/Fixtures"
        try FileManager.default.createDirectory(
            at: directory.appendingPathComponent(fixtures), withIntermediateDirectories: true)
        for file in ["feeds.yaml", "\(fixtures)/categories.json", "\(fixtures)/listing.json"] {
            try FileManager.default.copyItem(
                at: ClassifiedDefaultFeedTests.checkout.appendingPathComponent(file),
                to: directory.appendingPathComponent(file))
        }
        let run = try await FeedworkProcess.run(["run", "--feed", "leboncoin", "-q"], in: directory)
        #expect(run.status == 0, "\(run.stderr)")
        return directory
    }

    /// The ids of the fixture's ads whose title or description holds `word` as a word, any case.
    static func adsHolding(_ word: String) throws -> Set<Int> {
        let data = try Data(
            contentsOf: ClassifiedDefaultFeedTests.checkout.appendingPathComponent(
                "Adapters/Classified/Fixtures/listing.json"))
        let ads = try JSONSerialization.jsonObject(with: data) as? [[String: Any]] ?? []
        return Set(
            ads.filter { ad in
                let text = "\(ad["title"] as? String ?? "") \(ad["description"] as? String ?? "")".lowercased()
                return text.split(whereSeparator: { !$0.isLetter && !$0.isNumber }).contains { $0 == word }
            }.compactMap { $0["id"] as? Int })
    }

    @Test func aFrenchWordKeepsTheAdsHoldingItAndTheFiltersStillApply() async throws {
        let directory = try await Self.ranFolder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try await FeedworkProcess.run(
            ["export", "classified", "--search", "Maison", "--columns", "id,price"], in: directory)
        #expect(result.status == 0, "\(result.stderr)")
        let rows = result.stdout.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        let expected = try Self.adsHolding("maison")
        #expect(expected.count >= 3, "the fixture has ads with the word")
        #expect(Set(rows.compactMap { $0["id"] as? Int }) == expected)
        #expect(rows.count == expected.count)
        let cheap = try await FeedworkProcess.run(
            [
                "export", "classified", "--search", "maison", "--where", "price<2000", "--order", "price", "--columns",
                "price",
            ], in: directory)
        let prices = cheap.stdout.split(separator: "\n").compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["price"] as? Int
        }
        #expect(!prices.isEmpty && prices.count < expected.count && prices == prices.sorted())
    }

    @Test func anEntityWithoutSearchOrNoWordIsAUsageError() async throws {
        let directory = try await Self.ranFolder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let category = try await FeedworkProcess.run(["export", "category", "--search", "maison"], in: directory)
        #expect(category.status == 2)
        #expect(category.stderr.contains("'category' has no full-text index"), "\(category.stderr)")
        #expect(category.stderr.contains("search: [title, description]"), "\(category.stderr)")
        let punctuation = try await FeedworkProcess.run(["export", "classified", "--search", "?!"], in: directory)
        #expect(punctuation.status == 2)
        #expect(punctuation.stderr.contains("no word to search for"), "\(punctuation.stderr)")
    }
}

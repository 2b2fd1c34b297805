import Foundation
import Testing

/// The classified feed of the repository's own feeds.yaml, run offline from the shipped fixtures.
@Suite("feedwork run: the default classified feed")
struct ClassifiedDefaultFeedTests {
    static let checkout = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    @Test func theDefaultLeboncoinFeedLandsOnceAndIsUnchangedTheSecondTime() async throws {
        let directory = try Self.copyOfTheDefaultClassifiedFeed()
        defer { try? FileManager.default.removeItem(at: directory) }
        let first = try await counts(FeedworkProcess.run(["run", "--feed", "leboncoin", "--json"], in: directory))
        #expect(first["inserted"] == 311, "11 categories and 300 ads")
        let second = try await counts(FeedworkProcess.run(["run", "--feed", "leboncoin", "--json"], in: directory))
        #expect(second["unchanged"] == 311)
        #expect(second["inserted"] == 0)
        #expect(second["updated"] == 0)
    }

    @Test func theDefaultConfigAsksNoImageHost() async throws {
        let directory = try Self.copyOfTheDefaultClassifiedFeed()
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try await FeedworkProcess.run(["run", "--feed", "leboncoin", "--json"], in: directory)
        #expect(result.status == 0, "\(result.stderr)")
        let report = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        let feed = try #require((report?["feeds"] as? [[String: Any]])?.first { $0["feed"] as? String == "leboncoin" })
        #expect(feed["media"] == nil || feed["media"] is NSNull, "the ads' live image URLs were fetched: \(feed)")
    }

    /// A new folder holding the repository's feeds.yaml and the classified feed's fixtures.
    private static func copyOfTheDefaultClassifiedFeed() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "feedwork-cli-\(UUID().uuidString)")
        let fixtures = "Adapters/Classified/Fixtures"
        try FileManager.default.createDirectory(
            at: directory.appendingPathComponent(fixtures), withIntermediateDirectories: true)
        for file in ["feeds.yaml", "\(fixtures)/categories.json", "\(fixtures)/listing.json"] {
            try FileManager.default.copyItem(
                at: Self.checkout.appendingPathComponent(file), to: directory.appendingPathComponent(file))
        }
        return directory
    }

    private func counts(_ result: FeedworkProcess.Result) throws -> [String: Int] {
        #expect(result.status == 0, "\(result.stderr)")
        let report = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        let feed = (report?["feeds"] as? [[String: Any]])?.first { $0["feed"] as? String == "leboncoin" }
        return feed?["counts"] as? [String: Int] ?? [:]
    }
}

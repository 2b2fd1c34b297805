import Foundation
import Testing

/// Misspelt keys are named with the key they probably mean, also when the letters are swapped
/// and when the key is a common feed key written among an adapter's options.
@Suite("validate: did you mean")
struct DidYouMeanTests {
    let directory: URL

    init() throws {
        directory = try FeedworkProcess.makeFolder("spelling")
    }

    func validate(_ feed: String) async throws -> FeedworkProcess.Result {
        try Data("feeds:\n\(feed)".utf8).write(to: directory.appendingPathComponent("feeds.yaml"))
        return try await FeedworkProcess.run(["validate"], in: directory)
    }

    @Test func aCommonKeyMisspeltInAFeedIsSuggestedNotTheAdaptersOptions() async throws {
        let result = try await validate("  - { name: f, adapter: fruit, url: data.json, retires: 2 }\n")
        #expect(result.status == 2)
        #expect(
            result.stderr.contains("unknown key 'retires' in feeds[0]; did you mean 'retries'?"), "\(result.stderr)")
        #expect(!result.stderr.contains("expected one of"))
    }

    @Test func swappedLettersInARequiredOptionAreSuggested() async throws {
        let result = try await validate(
            """
              - name: items
                adapter: json
                ulr: http://127.0.0.1:9/items
                records: items
                entity: item
                key: id
                fields: { id: int }

            """)
        #expect(result.status == 2)
        #expect(result.stderr.contains("unknown key 'ulr' in feeds[0]; did you mean 'url'?"), "\(result.stderr)")
    }
}

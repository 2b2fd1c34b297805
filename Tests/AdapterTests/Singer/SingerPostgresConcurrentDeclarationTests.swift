import FeedEngine
import FeedKit
import FeedTestSupport
import Foundation
import SingerFeed
import Testing

/// Feeds whose first passes declare one new entity at the same moment, each pass in a
/// transaction of its own on PostgreSQL: the tables are made once, and every pass lands.
@Suite("singer adapter on PostgreSQL: one new entity from several feeds at once")
struct SingerPostgresConcurrentDeclarationTests {
    @Test(.timeLimit(.minutes(10)))
    func threeFeedsDeclaringOneEntityAtOnceAllCommit() async throws {
        // Each tap announces the stream, then waits 2 s before its record: the three passes
        // declare `shared` while none has committed.
        let feeds = (1...3).map { id in
            let command =
                ["python3", SingerFeedTest.tap("named_stream_tap.py"), "--stream", "shared", "--id", "\(id)"]
                + ["--sleep", "2"]
            return """
                  - name: feed\(id)
                    adapter: singer
                    command: [\(command.map { "\"\($0)\"" }.joined(separator: ", "))]
                """
        }
        let yaml = "defaults: { concurrency: 3 }\nfeeds:\n" + feeds.joined(separator: "\n")
        let harness = try FeedHarness(registry: SingerFeedTest.registry, yaml: yaml, store: .postgres)
        let report = try await harness.run()
        #expect(report.feeds.map(\.status) == [.ok, .ok, .ok], "\(report.feeds.compactMap(\.error))")
        #expect(try await harness.count("shared") == 3)
    }
}

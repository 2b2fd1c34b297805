import FeedEngine
import FeedKit
import FeedTestSupport
import Foundation
import Testing

/// Date templates in `url`, like those in `params`, render at the pass's start.
@Suite("json adapter: templates in the url")
struct JSONURLTemplateTests {
    @Test func aDateTemplateInTheURLPathRendersAtThePassStart() async throws {
        let paths = Shared<[String]>([])
        let server = try LoopbackServer { request in
            paths.set(paths.value + [request.path])
            return .json(#"[{"id":1}]"#)
        }
        let harness = try JSONFeedTest.harness(
            url: server.url("/reports/{{today-1d|yyyy-MM-dd}}"),
            """
                entity: report
                key: id
                fields: { id: int }
            """)
        let report = try await harness.run(startDate: FeedHarness.fixedStart)  // 2026-01-10T00:00:00Z
        #expect(report.feeds.first?.status == .ok)
        #expect(paths.value == ["/reports/2026-01-09"])
    }
}

import FeedEngine
import FeedKit
import FeedTestSupport
import Foundation
import JSONFeed
import Testing

/// An API that echoes the caller's key inside records: the value is stored as `***`, and a
/// record whose key is the secret is rejected rather than stored.
@Suite("json adapter: secrets echoed in records")
struct JSONEchoedSecretTests {
    static let secret = "echoed-secret-4471"

    func harness(_ records: String) throws -> (FeedHarness, LoopbackServer) {
        let server = try LoopbackServer { _ in .json(records) }
        let harness = try JSONFeedTest.harness(
            url: server.url("/items"),
            """
                auth: { type: api_key, query: key, value: "${KEY}" }
                records: $
                entity: item
                key: id
                extra: keep
                fields: { id: string, note: string }
            """, environment: ["KEY": Self.secret])
        return (harness, server)
    }

    @Test func aSecretEchoedInAFieldIsStoredAsStars() async throws {
        let records = #"[{"id":"1","note":"your key is \#(Self.secret)","echo":"\#(Self.secret)"}]"#
        let (harness, server) = try harness(records)
        let report = try await harness.run()
        withExtendedLifetime(server) {}
        #expect(report.succeeded, "\(report.feeds.map(\.error))")
        let rows = try await harness.rows("SELECT note, _extra FROM item")
        #expect(JSONFeedTest.texts(rows, "note") == ["your key is ***"])
        #expect(JSONFeedTest.texts(rows, "_extra").allSatisfy { !$0.contains(Self.secret) && $0.contains("***") })
    }

    @Test func aRecordWhoseKeyIsTheSecretIsRejected() async throws {
        let (harness, server) = try harness(#"[{"id":"1","note":"a"},{"id":"\#(Self.secret)","note":"b"}]"#)
        let report = try await harness.run()
        withExtendedLifetime(server) {}
        #expect(report.succeeded, "\(report.feeds.map(\.error))")
        #expect(try await harness.count("item") == 1)
        let rejects = try await harness.rows("SELECT reason, raw FROM _rejects")
        #expect(JSONFeedTest.texts(rejects, "reason").first?.contains("key holds a secret") == true)
        #expect(JSONFeedTest.texts(rejects, "raw").allSatisfy { !$0.contains(Self.secret) })
    }
}

import FeedEngine
import FeedFixtures
import FeedKit
import FeedTestSupport
import Foundation
import Testing

@Suite("RecordingFetcher")
struct RecordingFetcherTests {
    @Test func secretsAreReplacedInTheURLHeadersAndBody() async throws {
        let secret = "k3y-\(UUID().uuidString)"
        let server = try LoopbackServer { _ in
            .json(#"{"echo":"\#(secret)"}"#).header("X-Echo", secret).header("Set-Cookie", "session=abc")
        }
        defer { server.stop() }
        let recorder = RecordingFetcher()
        let context = testContext(redactor: Redactor(secrets: [secret]))
        let response = try await recorder.fetch(FetchRequest(url: server.url("/list?key=\(secret)")), context: context)
        #expect(response.text.contains(secret), "the adapter still gets the real response")
        let recorded = try #require(recorder.responses.first)
        #expect(recorded.url == server.url("/list?key=***"))
        #expect(recorded.headers["x-echo"] == "***")
        #expect(recorded.headers["set-cookie"] == nil)
        #expect(String(decoding: recorded.body, as: UTF8.self) == #"{"echo":"***"}"#)
    }

    @Test func aFailedStatusIsRecordedSoTheReplayFailsTheSameWay() async throws {
        let server = try LoopbackServer { _ in .status(403) }
        defer { server.stop() }
        let recorder = RecordingFetcher()
        await #expect(throws: FetchError.self) {
            try await recorder.fetch(FetchRequest(url: server.url("/denied")), context: testContext())
        }
        let replay = ReplayFetcher(recording: FixtureRecording(startedAt: Date(), responses: recorder.responses))
        let error = await #expect(throws: FetchError.self) {
            try await replay.fetch(FetchRequest(url: server.url("/denied")), context: testContext())
        }
        #expect(error?.kind == .status(403))
    }
}

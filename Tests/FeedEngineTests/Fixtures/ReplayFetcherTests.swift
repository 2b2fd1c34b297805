import FeedEngine
import FeedFixtures
import FeedKit
import Foundation
import Testing

@Suite("ReplayFetcher")
struct ReplayFetcherTests {
    let recording = FixtureRecording(
        startedAt: Date(timeIntervalSince1970: 1_700_000_000),
        responses: [
            RecordedResponse(
                method: "GET", url: "https://api.example.com/list?key=***", status: 200,
                headers: ["content-type": "application/json"], body: Data(#"{"n":1}"#.utf8)),
            RecordedResponse(method: "GET", url: "pages/page-2.json", status: 404, body: Data()),
            RecordedResponse(method: "GET", url: "https://api.example.com/broken", status: 500, body: Data()),
        ])

    @Test func aRequestWithoutRecordingIsAnErrorNamingMethodAndURL() async throws {
        let fetcher = ReplayFetcher(recording: recording)
        let error = await #expect(throws: FixtureError.self) {
            try await fetcher.fetch(FetchRequest(url: "https://api.example.com/other?page=2"), context: testContext())
        }
        #expect(error?.description == "no recorded response for GET https://api.example.com/other?page=2")
    }

    @Test func requestsAreLookedUpByTheirRedactedURL() async throws {
        let fetcher = ReplayFetcher(recording: recording)
        let context = testContext(redactor: Redactor(secrets: ["s3cr3t-key"]))
        let response = try await fetcher.fetch(
            FetchRequest(url: "https://api.example.com/list?key=s3cr3t-key"), context: context)
        #expect(response.text == #"{"n":1}"#)
        #expect(response.url == "https://api.example.com/list?key=***")
        #expect(response.headers["content-type"] == "application/json")
    }

    @Test func aPathIsReplayedWithoutReadingTheFileSystem() async throws {
        let fetcher = ReplayFetcher(recording: recording)
        let response = try await fetcher.fetch(
            FetchRequest(url: "pages/page-2.json", acceptsNotFound: true), context: testContext())
        #expect(response.status == 404)
        #expect(response.origin == .file)
    }

    @Test func aRecordedMissingFileIsThrownToRequestsThatDoNotAcceptIt() async throws {
        let fetcher = ReplayFetcher(recording: recording)
        let error = await #expect(throws: FetchError.self) {
            try await fetcher.fetch(FetchRequest(url: "pages/page-2.json"), context: testContext())
        }
        #expect(error?.kind == .fileNotFound)
    }

    @Test func aRecordedServerErrorIsThrownAsItsStatus() async throws {
        let fetcher = ReplayFetcher(recording: recording)
        let error = await #expect(throws: FetchError.self) {
            try await fetcher.fetch(FetchRequest(url: "https://api.example.com/broken"), context: testContext())
        }
        #expect(error?.kind == .status(500))
    }

    @Test func repeatedRequestsGetTheirRecordingsInOrderThenTheLastAgain() async throws {
        let url = "https://api.example.com/counter"
        let fetcher = ReplayFetcher(
            recording: FixtureRecording(
                startedAt: Date(),
                responses: ["1", "2"].map {
                    RecordedResponse(method: "GET", url: url, status: 200, body: Data($0.utf8))
                }))
        var bodies: [String] = []
        for _ in 0..<3 { bodies.append(try await fetcher.fetch(FetchRequest(url: url), context: testContext()).text) }
        #expect(bodies == ["1", "2", "2"])
    }
}

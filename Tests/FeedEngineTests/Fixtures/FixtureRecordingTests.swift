import FeedEngine
import FeedFixtures
import FeedKit
import Foundation
import Testing

@Suite("FixtureRecording")
struct FixtureRecordingTests {
    @Test func writtenRecordingsReadBackTheSame() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let recording = FixtureRecording(
            startedAt: Date(timeIntervalSince1970: 1_700_000_000.5),
            responses: [
                RecordedResponse(
                    method: "GET", url: "https://api.example.com/a?key=***", status: 200,
                    headers: ["content-type": "application/json", "etag": "\"v1\""], body: Data(#"{"a":[1,2]}"#.utf8)),
                RecordedResponse(method: "GET", url: "data/b.txt", status: 404, body: Data("not json".utf8)),
            ])
        try recording.write(to: folder)
        #expect(try FixtureRecording.read(from: folder) == recording)
        let bodies = try FileManager.default.contentsOfDirectory(
            atPath: folder.appendingPathComponent("responses").path)
        #expect(bodies.sorted() == ["001.json", "002.txt"])
    }

    @Test func aMissingBodyFileIsNamedInTheError() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FixtureRecording(
            startedAt: Date(),
            responses: [RecordedResponse(method: "GET", url: "https://x.test/a", status: 200, body: Data("{}".utf8))]
        ).write(to: folder)
        try FileManager.default.removeItem(at: folder.appendingPathComponent("responses/001.json"))
        let error = #expect(throws: FixtureError.self) { try FixtureRecording.read(from: folder) }
        #expect(error?.description.contains("responses/001.json of GET https://x.test/a is missing") == true)
    }
}

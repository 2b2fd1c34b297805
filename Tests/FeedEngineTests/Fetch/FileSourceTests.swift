import FeedEngine
import FeedFixtures
import FeedKit
import Foundation
import Testing

@Suite("Local file sources")
struct FileSourceTests {
    let fetcher = StandardFetcher()

    @Test func relativePathIsReadFromTheBaseDirectory() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("Fixtures"), withIntermediateDirectories: true)
        try Data("[\"pear\"]".utf8).write(to: folder.appendingPathComponent("Fixtures/data.json"))

        let response = try await fetcher.fetch(
            FetchRequest(url: "Fixtures/data.json"), context: testContext(baseDirectory: folder))
        #expect(response.origin == .file)
        #expect(response.status == 200)
        #expect(response.text == "[\"pear\"]")
        #expect(response.attempts == 0)
    }

    @Test func fileURLIsRead() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("a b.json")
        try Data("{}".utf8).write(to: file)
        let response = try await fetcher.fetch(FetchRequest(url: file.absoluteString), context: testContext())
        #expect(response.text == "{}")
    }

    @Test func missingFileFails() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let error = await #expect(throws: FetchError.self) {
            try await fetcher.fetch(FetchRequest(url: "nothing.json"), context: testContext(baseDirectory: folder))
        }
        #expect(error?.kind == .fileNotFound)
    }

    @Test func missingFileIsNotFoundWhenAccepted() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let response = try await fetcher.fetch(
            FetchRequest(url: "nothing.json", acceptsNotFound: true), context: testContext(baseDirectory: folder))
        #expect(response.status == 404)
    }

    @Test func fileOverTheSizeLimitIsRefused() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(repeating: 65, count: 2000).write(to: folder.appendingPathComponent("big.json"))
        let error = await #expect(throws: FetchError.self) {
            try await fetcher.fetch(
                FetchRequest(url: "big.json"),
                context: testContext(policy: testPolicy(maxResponseBytes: 1000), baseDirectory: folder))
        }
        #expect(error?.kind == .tooLarge(limit: 1000))
    }
}

extension FileSourceTests {
    @Test func unsupportedSchemeIsRefused() async throws {
        let error = await #expect(throws: FetchError.self) {
            try await fetcher.fetch(FetchRequest(url: "ftp://example.com/data.json"), context: testContext())
        }
        guard case .fileUnreadable = error?.kind else {
            Issue.record("expected fileUnreadable, got \(String(describing: error))")
            return
        }
    }
}

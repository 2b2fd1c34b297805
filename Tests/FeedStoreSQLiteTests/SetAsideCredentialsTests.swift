import FeedKit
import FeedStore
import Foundation
import Testing

@testable import FeedStoreSQLite

/// Credentials a pass renews while its transaction holds SQLite's one writer are set aside in a
/// file beside the store: read in place of the stored ones, private to their owner, and gone
/// once a committed write or a drop supersedes them.
@Suite("SQLite: credentials set aside beside the store")
struct SetAsideCredentialsTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("set-aside-\(UUID().uuidString)")
    var path: String { folder.appendingPathComponent("feeds.sqlite").path }
    let key = FeedPass.credentialStatePrefix + "oauth2"

    /// The files set aside for any feed of the store.
    func setAsideFiles() -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: path + "-credentials")) ?? []
    }

    @Test func aSetAsideValueIsReadInPlaceOfTheStoredOne() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let driver = try SQLiteStore(path: path)
        let store = Store(driver)
        try await store.recordCredentials([key: "old"], feed: "orders")
        try await store.setAsideCredentials([key: "rotated"], feed: "orders")
        #expect(try await store.state(feed: "orders", key: key) == "rotated")
        #expect(try await store.states(feed: "orders", prefix: FeedPass.credentialStatePrefix) == [key: "rotated"])
        #expect(try await store.state(feed: "other", key: key) == nil)
        try await store.close()
    }

    @Test func aRemovedKeySetAsideReadsAsRemoved() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let driver = try SQLiteStore(path: path)
        let store = Store(driver)
        try await store.recordCredentials([key: "old"], feed: "orders")
        try await store.setAsideCredentials([key: nil], feed: "orders")
        #expect(try await store.state(feed: "orders", key: key) == nil)
        #expect(try await store.states(feed: "orders", prefix: FeedPass.credentialStatePrefix).isEmpty)
        try await store.close()
    }

    @Test func theFileIsReadableByItsOwnerAlone() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let driver = try SQLiteStore(path: path)
        let store = Store(driver)
        try await store.setAsideCredentials([key: "rotated"], feed: "orders")
        let file = try #require(setAsideFiles().first)
        let attributes = try FileManager.default.attributesOfItem(atPath: path + "-credentials/" + file)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        let folderAttributes = try FileManager.default.attributesOfItem(atPath: path + "-credentials")
        #expect((folderAttributes[.posixPermissions] as? Int) == 0o700)
        try await store.close()
    }

    @Test func aCommittedWriteOfTheSameCredentialsRemovesTheFile() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let driver = try SQLiteStore(path: path)
        let store = Store(driver)
        try await store.setAsideCredentials([key: "rotated"], feed: "orders")
        try await store.recordCredentials([key: "rotated"], feed: "orders")
        #expect(setAsideFiles().isEmpty)
        #expect(try await store.state(feed: "orders", key: key) == "rotated")
        try await store.close()
    }

    @Test func droppingTheFeedRemovesWhatWasSetAside() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let driver = try SQLiteStore(path: path)
        let store = Store(driver)
        let run = try await store.startRun(
            feed: "orders", adapter: AdapterOrigin(name: "json", module: "JSONFeed"), at: Date())
        try await store.recordFailedRun(
            run, feed: "orders",
            outcome: RunOutcome(
                status: .failed, counts: WriteCounts(), requests: 0, attempts: 0, bytes: 0, error: "killed",
                notes: [], finished: Date()),
            outbox: [], rejects: [], credentials: [:])
        try await store.setAsideCredentials([key: "rotated"], feed: "orders")
        _ = try await store.drop(.feed("orders"))
        #expect(setAsideFiles().isEmpty)
        #expect(try await store.state(feed: "orders", key: key) == nil)
        try await store.close()
    }

    @Test func anUnreadableFileIsAStoreErrorNamingIt() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let driver = try SQLiteStore(path: path)
        let store = Store(driver)
        try await store.setAsideCredentials([key: "rotated"], feed: "orders")
        let file = try #require(setAsideFiles().first)
        try Data("{not json".utf8).write(to: URL(fileURLWithPath: path + "-credentials/" + file))
        let error = await #expect(throws: StoreError.self) { try await store.state(feed: "orders", key: key) }
        #expect(error?.description.contains(file) == true)
        try await store.close()
    }
}

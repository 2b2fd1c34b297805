import FeedKit
import FeedStore
import Foundation
import Testing

@testable import FeedStoreSQLite

/// Runs a process left `running` when it died are marked `interrupted` by the next one to open
/// the store for a pass; a store without any opens without a write.
@Suite("Runs a dead process left")
struct InterruptedRunTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("interrupted-\(UUID().uuidString)")
    var path: String { folder.appendingPathComponent("feeds.sqlite").path }

    @Test func aRunLeftRunningIsMarkedInterrupted() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        do {
            let driver = try SQLiteStore(path: path)
            let store = Store(driver)
            _ = try await store.startRun(
                feed: "items", adapter: AdapterOrigin(name: "json", module: "JSONFeed"), at: Date())
            try await store.close()  // the run is never finished, as when its process dies
        }
        let driver = try SQLiteStore(path: path)
        let store = Store(driver)
        try await store.markInterruptedRuns()
        let statuses = try await driver.read { db in try String.fetchAll(db, sql: "SELECT status FROM _runs") }
        #expect(statuses == ["interrupted"])
    }

    @Test func aStoreWithNoRunLeftRunningOpensWithoutAWrite() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        do {
            let driver = try SQLiteStore(path: path)
            let store = Store(driver)
            let run = try await store.startRun(
                feed: "items", adapter: AdapterOrigin(name: "json", module: "JSONFeed"), at: Date())
            try await store.recordFailedRun(
                run, feed: "items",
                outcome: RunOutcome(
                    status: .failed, counts: WriteCounts(), requests: 0, attempts: 0, bytes: 0, error: "gone",
                    notes: [], finished: Date()),
                outbox: [], rejects: [], credentials: [:])
            try await store.close()
        }
        let driver = try SQLiteStore(path: path)
        let store = Store(driver)
        try await store.markInterruptedRuns()
        #expect(!driver.writer.hasStarted, "opening the store started its writer thread")
        let statuses = try await driver.read { db in try String.fetchAll(db, sql: "SELECT status FROM _runs") }
        #expect(statuses == ["failed"])
    }
}

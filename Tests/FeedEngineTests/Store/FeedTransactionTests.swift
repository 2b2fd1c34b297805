import FeedKit
import Foundation
import Testing

@testable import FeedEngine
@testable import FeedStoreSQLite

/// A pass's transaction lets go of its jobs once it ends.
@Suite("Feed transactions")
struct FeedTransactionTests {
    /// Holds what a job refers to: in the engine, the pass, which holds its transaction.
    final class Pass: @unchecked Sendable {
        var transaction: FeedTransaction?
    }

    @Test func aFinishedTransactionKeepsNoJobAndSoNoPassAlive() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("transaction-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = Store(try SQLiteStore(path: folder.appendingPathComponent("feeds.sqlite").path))
        weak var released: FeedTransaction?
        do {
            let pass = Pass()
            let transaction = store.passTransaction(
                feed: "items", run: 1, stamp: "2026-01-01T00:00:00.000Z", bindings: [])
            pass.transaction = transaction
            released = transaction
            try await transaction.send { _ in withExtendedLifetime(pass) {} }
            try await transaction.finish(commit: true)
        }
        // The transaction's thread lets go of it as the thread ends, a moment after `finish`
        // returned on a loaded machine: wait for that, up to 60 s.
        for _ in 0..<600 where released != nil { try await Task.sleep(for: .milliseconds(100)) }
        #expect(released == nil, "the last job, holding the pass, kept the transaction (and its store) alive")
    }
}

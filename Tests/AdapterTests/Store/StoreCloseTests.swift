import FeedEngine
import FeedKit
import FeedTestSupport
import Foundation
import Testing

/// Closing the engine folds SQLite's write-ahead log into the store file, so the next process
/// that opens the store does not read the log first.
@Suite("Store: closing")
struct StoreCloseTests {
    @Test func closingTheEngineLeavesNoWriteAheadLogBehind() async throws {
        // Enough rows that the log outgrows SQLite's automatic checkpoint (1,000 pages).
        let items = (1...20_000).map { #"{"id":\#($0),"name":"item-\#($0)"}"# }.joined(separator: ",")
        let harness = try JSONFeedTest.harness(
            url: "items.json",
            "    records: items\n    entity: item\n    key: id\n    fields: { id: int, name: string }",
            files: ["items.json": Data(#"{"items":[\#(items)]}"#.utf8)])
        let config = try harness.config()
        let log = config.storePath + "-wal"
        let engine = try await Engine.open(config)
        _ = await engine.run()
        #expect(FileManager.default.fileExists(atPath: log), "an open store keeps its log")
        try await engine.close()
        #expect(!FileManager.default.fileExists(atPath: log))
        withExtendedLifetime(engine) {}
        #expect(try await harness.count("item") == 20_000)
    }
}

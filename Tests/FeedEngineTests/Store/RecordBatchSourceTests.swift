import FeedKit
import Testing

/// A batch's source goes to its rejects that have none, also after batches are appended.
@Suite("RecordBatch: sources")
struct RecordBatchSourceTests {
    @Test func appendedRejectsKeepTheSourceOfTheirOwnBatch() {
        let listing = RecordSource(url: "https://api.example/listing", page: 2)
        var batch = RecordBatch(source: RecordSource(url: "https://api.example/categories", page: 1))
        batch.append(
            RecordBatch(rejects: [Reject(entity: "ad", reason: "bad", path: "$[0]", raw: "{}")], source: listing))
        #expect(batch.rejects.map(\.source) == [listing])
        #expect(batch.source?.page == 1)
    }
}

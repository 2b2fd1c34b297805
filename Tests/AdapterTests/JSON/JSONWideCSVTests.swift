import FeedEngine
import FeedKit
import FeedTestSupport
import Foundation
import Testing

/// A CSV response 300,000 columns wide (2.4 MB) is read in time linear in its size: its header's
/// names are checked for repeats in a set, not against every earlier name.
@Suite("json adapter: a CSV response with 300,000 columns")
struct JSONWideCSVTests {
    static let columns = 300_000

    /// A header `id,c1,c2,...` and one row `7,1,2,...`.
    static func wideCSV() -> Data {
        let header = "id," + (1..<columns).map { "c\($0)" }.joined(separator: ",")
        let row = "7," + (1..<columns).map { String($0 % 10) }.joined(separator: ",")
        return Data((header + "\n" + row + "\n").utf8)
    }

    @Test(.timeLimit(.minutes(1)))
    func theReaderReadsEveryColumn() throws {
        let rows = try #require(try CSVReader.parse(Self.wideCSV()).arrayValue)
        #expect(rows.count == 1)
        #expect(rows.first?.objectValue?.members.count == Self.columns)
        #expect(rows.first?["c299999"] == .string("9"))
    }

    @Test(.timeLimit(.minutes(1)), arguments: HarnessStore.available)
    func aFeedStoresItsRowFromTheWideResponse(driver: HarnessStore) async throws {
        let body = Self.wideCSV()
        let server = try LoopbackServer { _ in .data(body, headers: [("Content-Type", "text/csv")]) }
        defer { server.stop() }
        let harness = try JSONFeedTest.harness(
            url: server.url("/wide.csv"),
            """
                format: csv
                entity: wide
                key: id
                fields: { id: int, c299999: int }
            """, driver: driver)
        let report = try #require(try await harness.run().feeds.first)
        #expect(report.status == .ok, "\(report.error ?? "")")
        let rows = try await harness.rows("SELECT id, c299999 FROM wide")
        #expect(rows.map { $0["c299999"] } == [.integer(9)])
    }
}

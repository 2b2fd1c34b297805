import FeedEngine
import FeedFixtures
import FeedKit
import FeedTestSupport
import Foundation
import Testing

/// The `date` type: a calendar date with no time zone, stored, filtered and exported as
/// `YYYY-MM-DD` by both stores.
@Suite("json adapter: dates")
struct JSONDateTests {
    static let body = #"""
        {"items":[
          {"id":1,"on":"2024-02-29","local":"29/02/2024"},
          {"id":2,"on":"2024-03-01","local":"01/03/2024"},
          {"id":3,"on":"2023-02-29","local":"01/01/2023"},
          {"id":4,"on":"2024-02-29T10:00:00Z","local":"01/01/2023"},
          {"id":5,"on":"2024-01-15","local":"31/04/2024"},
          {"id":6,"on":null,"local":null}
        ]}
        """#

    static func harness(driver: HarnessStore) throws -> (FeedHarness, LoopbackServer) {
        let server = try LoopbackServer { _ in .json(body) }
        let harness = try JSONFeedTest.harness(
            url: server.url("/items"),
            """
                max_reject_ratio: 1
                records: $.items
                entity: item
                key: id
                fields:
                  id: int
                  on: date
                  local: { type: date, format: dd/MM/yyyy }
            """, driver: driver)
        return (harness, server)
    }

    @Test(arguments: HarnessStore.available)
    func datesAreStoredAsCalendarDatesAndDaysTheCalendarLacksAreRejected(driver: HarnessStore) async throws {
        let (harness, server) = try Self.harness(driver: driver)
        defer { server.stop() }
        let report = try #require(try await harness.run().feeds.first)
        #expect(report.counts.rejected == 3)
        let rows = try await harness.rows("SELECT id, \"on\", local FROM item ORDER BY id")
        #expect(JSONFeedTest.integers(rows, "id") == [1, 2, 6])
        #expect(JSONFeedTest.texts(rows, "on") == ["2024-02-29", "2024-03-01"])
        #expect(JSONFeedTest.texts(rows, "local") == ["2024-02-29", "2024-03-01"])
        #expect(try await harness.schemas()["item"]?.columns.map(\.type) == [.integer, .date, .date])
        await #expect(
            try JSONFeedTest.rejects(harness) == [
                "$.items[2].on: expected a date (YYYY-MM-DD), found '2023-02-29', which is not a day of the calendar",
                "$.items[3].on: expected a date (YYYY-MM-DD), found '2024-02-29T10:00:00Z'",
                "$.items[4].local: expected a date (dd/MM/yyyy), found '31/04/2024', which is not a day of the calendar",
            ])
    }

    @Test(arguments: HarnessStore.available)
    func dateFiltersCompareWholeDatesAndEveryExportFormatIsTheSameOnEitherStore(driver: HarnessStore) async throws {
        let (harness, server) = try Self.harness(driver: driver)
        defer { server.stop() }
        _ = try await harness.run()
        let exporter = try Exporter(config: harness.config())
        func export(_ filters: [String], _ format: ExportFormat = .ndjson) async throws -> String {
            var request = ExportRequest(entity: "item")
            request.columns = ["id", "on"]
            request.filters = try filters.map { try ExportFilter(where: $0) }
            let output = ExportOutput.memory()
            try await exporter.export(request, format: format, to: output)
            return String(decoding: output.bytes, as: UTF8.self)
        }
        await #expect(try export(["on=2024-02-29"]) == #"{"id":1,"on":"2024-02-29"}"# + "\n")
        await #expect(try export(["on>2024-02-29"]) == #"{"id":2,"on":"2024-03-01"}"# + "\n")
        await #expect(try export(["on<=2024-02-29"]) == #"{"id":1,"on":"2024-02-29"}"# + "\n")
        await #expect(try export(["on~03-0"]) == #"{"id":2,"on":"2024-03-01"}"# + "\n")
        await #expect(
            try export([]) == #"{"id":1,"on":"2024-02-29"}\#n{"id":2,"on":"2024-03-01"}\#n{"id":6,"on":null}\#n"#)
        await #expect(try export([], .csv) == "id,on\r\n1,2024-02-29\r\n2,2024-03-01\r\n6,\r\n")
        await #expect(
            try export([], .json)
                == #"[\#n{"id":1,"on":"2024-02-29"},\#n{"id":2,"on":"2024-03-01"},\#n{"id":6,"on":null}\#n]\#n"#)
        let singer = try await export(["on=2024-03-01"], .singer)
        #expect(singer.contains(#""on":{"type":["string","null"],"format":"date"}"#))
        #expect(singer.contains(#""record":{"id":2,"on":"2024-03-01"}"#))
        await #expect(throws: (any Error).self) { try await export(["on=2023-02-29"]) }
        await #expect(throws: (any Error).self) { try await export(["on=29/02/2024"]) }

        // serve's pages read through the same filters, sorted by date and paged after one.
        let browser = try StoreBrowser(config: harness.config())
        var request = ExportRequest(entity: "item")
        request.filters = [try ExportFilter(where: "on>=2024-02-29")]
        request.keyset = Keyset(sort: .descending("on"))
        let page = try await browser.page(request, limit: 1)
        #expect(page.rows.map { page.value("on", in: $0) } == [.text("2024-03-01")])
        request.keyset?.after = try #require(page.next).values
        let next = try await browser.page(request, limit: 1)
        #expect(next.rows.map { next.value("on", in: $0) } == [.text("2024-02-29")])
    }
}

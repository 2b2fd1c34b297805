import Foundation
import Testing

/// Decimals keep the decimals they are written with, from the API to the store and every
/// export format, and a second pass finds them unchanged.
@Suite("Decimal scale through the binary")
struct DecimalScaleCommandTests {
    let directory: URL

    init() async throws {
        directory = try FeedworkProcess.makeFolder("decimal")
        try Data(
            #"[{"id":1,"price":"12.50"},{"id":2,"price":0.00},{"id":3,"price":"-0.00"},{"id":4,"price":1.5e3},{"id":5,"price":"+007.10"}]"#
                .utf8
        ).write(to: directory.appendingPathComponent("items.json"))
        try Data(
            """
            feeds:
              - name: shop
                adapter: json
                url: items.json
                entity: item
                key: id
                fields: { id: int, price: decimal }
            """.utf8
        ).write(to: directory.appendingPathComponent("feeds.yaml"))
        let run = try await FeedworkProcess.run(["run"], in: directory)
        #expect(run.status == 0, "\(run.stderr)")
    }

    @Test func ndjsonExportKeepsTheWrittenDecimals() async throws {
        let result = try await FeedworkProcess.run(["export", "item"], in: directory)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stdout.split(separator: "\n") == [
                #"{"id":1,"price":"12.50"}"#, #"{"id":2,"price":"0.00"}"#, #"{"id":3,"price":"0.00"}"#,
                #"{"id":4,"price":"1500"}"#, #"{"id":5,"price":"7.10"}"#,
            ])
    }

    @Test func csvExportKeepsTheWrittenDecimals() async throws {
        let result = try await FeedworkProcess.run(["export", "item", "--format", "csv"], in: directory)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "id,price\r\n1,12.50\r\n2,0.00\r\n3,0.00\r\n4,1500\r\n5,7.10\r\n")
    }

    @Test func aSecondPassFindsEveryRowUnchanged() async throws {
        let result = try await FeedworkProcess.run(["run", "--json"], in: directory)
        #expect(result.status == 0, "\(result.stderr)")
        let report = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        let counts = (report?["feeds"] as? [[String: Any]])?.first?["counts"] as? [String: Any]
        #expect(counts?["unchanged"] as? Int == 5, "\(result.stdout)")
        #expect(counts?["updated"] as? Int == 0, "\(result.stdout)")
    }
}

import FeedEngine
import FeedKit
import FeedTestSupport
import Foundation
import Testing

/// The json adapter's `format: xml` and `format: csv`: records found by element names or rows,
/// values read from their exact text, numbers and booleans converted from it.
@Suite("json adapter: XML and CSV responses")
struct JSONFormatTests {
    /// A loopback API answering every request with `body`.
    static func server(_ body: Data, contentType: String) throws -> LoopbackServer {
        try LoopbackServer { _ in .data(body, headers: [("Content-Type", contentType)]) }
    }

    static func text(_ row: [String: FieldValue], _ column: String) -> String? {
        if case .text(let text)? = row[column] { text } else { nil }
    }

    @Test(arguments: HarnessStore.available)
    func theECBsXMLGivesOneRowPerRateWithItsDayFromTheParentElement(driver: HarnessStore) async throws {
        let server = try Self.server(
            try Data(contentsOf: AdapterFixtures.url("Currency", "ecb-daily.xml")), contentType: "text/xml")
        let harness = try JSONFeedTest.harness(
            url: server.url("/stats/eurofxref/eurofxref-daily.xml"),
            """
                format: xml
                records: Envelope/Cube/Cube/Cube
                entity: euro_rate
                key: [day, currency]
                fields:
                  day: { path: ../@time, type: timestamp, format: yyyy-MM-dd }
                  currency: { path: "@currency", type: string }
                  rate: { path: "@rate", type: decimal }
            """, driver: driver)
        let report = try #require(try await harness.run().feeds.first)
        #expect(report.status == .ok, "\(report.error ?? "")")
        #expect(report.counts.inserted == 31)
        let huf = try await harness.rows("SELECT day, rate FROM euro_rate WHERE currency = 'HUF'")
        #expect(huf.first.map { Self.text($0, "rate") } == "310.70")
        #expect(huf.first.map { Self.text($0, "day") } == "2017-03-08T00:00:00Z")
    }

    @Test func xmlNumbersAndBooleansAreReadFromTheirText() async throws {
        let xml =
            #"<shop><items><item id="7" in_stock="true"><price currency="EUR">12.50</price><name>Pear</name></item>"#
            + #"<item id="8" in_stock="0"><price currency="EUR">3</price><name>Fig &amp; co</name></item></items></shop>"#
        let server = try Self.server(Data(xml.utf8), contentType: "application/xml")
        let harness = try JSONFeedTest.harness(
            url: server.url("/items"),
            """
                format: xml
                records: shop/items/item
                entity: item
                key: id
                fields:
                  id: { path: "@id", type: int }
                  in_stock: { path: "@in_stock", type: bool }
                  price: { path: "price['#text']", type: decimal }
                  name: string
            """)
        _ = try await harness.run()
        let rows = try await harness.rows("SELECT id, in_stock, price, name FROM item ORDER BY id")
        #expect(rows.map { $0["id"] } == [.integer(7), .integer(8)])
        #expect(rows.map { $0["in_stock"] } == [.integer(1), .integer(0)])
        #expect(rows.map { Self.text($0, "price") } == ["12.50", "3"])
        #expect(rows.map { Self.text($0, "name") } == ["Pear", "Fig & co"])
    }

    @Test(arguments: HarnessStore.available)
    func aCSVAPIsRowsAreRecordsNamedByTheHeader(driver: HarnessStore) async throws {
        let csv = "id,name,price\n1,Apple,0.50\n2,\"Pear, ripe\",1.20\n3,Quince,\n"
        let server = try Self.server(Data(csv.utf8), contentType: "text/csv")
        let harness = try JSONFeedTest.harness(
            url: server.url("/fruit.csv"),
            """
                format: csv
                entity: fruit
                key: id
                fields: { id: int, name: string, price: decimal }
            """, driver: driver)
        let report = try #require(try await harness.run().feeds.first)
        #expect(report.counts.inserted == 3, "\(report.error ?? "")")
        let rows = try await harness.rows("SELECT id, name, price FROM fruit ORDER BY id")
        #expect(rows.map { Self.text($0, "name") } == ["Apple", "Pear, ripe", "Quince"])
        #expect(rows.map { $0["price"] } == [.text("0.50"), .text("1.20"), .null])
    }

    @Test func aCSVFileInLatin1WithSemicolonsIsReadAsItsDialectSays() async throws {
        let harness = try JSONFeedTest.harness(
            url: "fruit.csv",
            """
                format: { type: csv, delimiter: ";", encoding: latin1 }
                entity: fruit
                key: id
                fields: { id: int, name: string, price: string }
            """, files: ["fruit.csv": try TestFixtures.data("formats/fruit-latin1.csv")])
        _ = try await harness.run()
        let rows = try await harness.rows("SELECT name, price FROM fruit ORDER BY id")
        #expect(rows.map { Self.text($0, "name") } == ["Pomme", "Poire; mûre"])
        #expect(rows.map { Self.text($0, "price") } == ["0,50", "1,20"])
    }

    @Test func aMalformedXMLPageFailsTheFeedWithTheURLLineAndColumn() async throws {
        let server = try Self.server(Data("<shop>\n  <item>\n</shop>".utf8), contentType: "text/xml")
        let harness = try JSONFeedTest.harness(
            url: server.url("/items"),
            """
                format: xml
                records: shop/item
                entity: item
                key: id
                fields: { id: int }
            """)
        let report = try #require(try await harness.run().feeds.first)
        #expect(report.status == .failed)
        let error = report.error ?? ""
        #expect(error.contains(server.url("/items")) && error.contains("XML at line 3, column 1"), "\(error)")
    }

    @Test func aCSVRowWithMoreFieldsThanTheHeaderFailsTheFeedNamingItsLine() async throws {
        let harness = try JSONFeedTest.harness(
            url: "items.csv",
            """
                format: csv
                entity: item
                key: id
                fields: { id: int }
            """, files: ["items.csv": Data("id\n1\n2,3\n".utf8)])
        let report = try #require(try await harness.run().feeds.first)
        #expect(report.status == .failed)
        #expect(
            report.error?.contains("CSV at line 3: the row has 2 fields, the header 1") == true, "\(report.error ?? "")"
        )
    }

    @Test(arguments: [
        ("format: xml", "an XML feed needs records"),
        ("format: csv\n    records: $.rows", "a CSV feed's records are its rows: leave records out"),
        ("format: { type: csv, delimiter: ';;' }", "delimiter must be one character"),
        ("format: { type: csv, encoding: ebcdic }", "unknown encoding 'ebcdic'"),
        ("format: { type: xml, delimiter: ';' }", "delimiter"),
        ("format: yaml", "format must be json, xml or csv, not 'yaml'"),
        ("format: xml\n    records: $.a.b", "element names from the root down"),
    ])
    func formatOptionsThatDoNotFitAreConfigErrors(options: String, message: String) throws {
        let problems = try JSONValidationTests.problems(
            """
              - name: items
                adapter: json
                url: https://api.example.com/items
                entity: item
                key: id
                fields: { id: int }
                \(options)
            """)
        #expect(problems.contains { $0.contains(message) }, "\(problems)")
    }
}

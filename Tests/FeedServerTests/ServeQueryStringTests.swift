import FeedEngine
import FeedKit
import FeedServer
import FeedTestSupport
import Foundation
import JSONFeed
import Testing

/// Query strings as a browser sends them: an HTML GET form writes a space as `+` and a plus as
/// `%2B` (so do the facet links, through `URLSearchParams`), a hand-typed URL a space as `%20`.
/// Every route of serve reads them alike, and the links it writes carry any value (`+`, `&`,
/// `#`, `%`, spaces, accents) back to the same view. A real server on loopback, rows from a
/// loopback API.
@Suite struct ServeQueryStringTests {
    typealias JSON = [String: Any]

    /// A value holding every character a query string treats specially.
    static let awkward = "a+b & c #1 100% é"

    /// Ads in two towns whose names differ only by a space or a plus.
    static let ads: [String] = [
        #"{"id": 1, "titre": "Canapé cuir noir", "ville": "Saint Malo", "etat": "très bon"}"#,
        #"{"id": 2, "titre": "Canapé cuir+tissu", "ville": "Saint+Malo", "etat": "neuf"}"#,
        #"{"id": 3, "titre": "Lampe", "ville": "Saint Malo", "etat": "très bon"}"#,
        #"{"id": 4, "titre": "Table", "ville": "Brest", "etat": "neuf"}"#,
        #"{"id": 5, "titre": "Chaise", "ville": "Saint Malo", "etat": "neuf"}"#,
        #"{"id": 6, "titre": "Chaise", "ville": "Saint Malo", "etat": "neuf"}"#,
        #"{"id": 7, "titre": "Vase", "ville": "Brest", "etat": "\#(awkward)"}"#,
        #"{"id": 8, "titre": "Vase", "ville": "Brest", "etat": "\#(awkward)"}"#,
    ]

    /// A harness whose feed of the ads ran once, and the server sending them.
    static func harness(_ store: HarnessStore) async throws -> (FeedHarness, LoopbackServer) {
        let server = try LoopbackServer { _ in .json("[" + ads.joined(separator: ",") + "]") }
        let yaml = """
            feeds:
              - name: annonces
                adapter: json
                url: \(server.url("/ads"))
                entity: annonce
                key: id
                search: [titre]
                fields:
                  id: int
                  titre: string
                  ville: string
                  etat: string
            """
        let harness = try FeedHarness(registry: AdapterRegistry([JSONAdapter.self]), yaml: yaml, store: store)
        let report = try await harness.run()
        #expect(report.feeds.allSatisfy { $0.status == FeedReport.Status.ok }, "\(report.feeds)")
        return (harness, server)
    }

    /// `text` as an HTML form sends it: a space as `+`, every other byte but letters, digits
    /// and `-._*` as `%XX`.
    static func form(_ text: String) -> String {
        text.utf8.map { byte -> String in
            switch byte {
            case UInt8(ascii: " "): "+"
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "*"):
                String(UnicodeScalar(byte))
            default: String(format: "%%%02X", byte)
            }
        }.joined()
    }

    /// The ids of `/api/entities/annonce/rows?QUERY`.
    static func ids(_ client: ServedClient, _ query: String) async throws -> [Int] {
        let response = try await client.execute(uri: "/api/entities/annonce/rows?sort=id&" + query, method: .get)
        #expect(response.status == .ok, "\(query): \(ServedStore.text(response))")
        let rows = (try ServedStore.json(response) as? JSON)?["rows"] as? [JSON] ?? []
        return rows.compactMap { $0["id"] as? Int }
    }

    /// The entity page at `target` (`/entities/annonce?...`).
    static func page(_ client: ServedClient, _ target: String) async throws -> String {
        let response = try await client.execute(uri: target, method: .get)
        #expect(response.status == .ok, "\(target): \(ServedStore.text(response))")
        return ServedStore.text(response)
    }

    /// The ids of the records a page lists.
    static func ids(_ page: String) -> [Int] {
        page.matches(of: #/href="/entities/annonce/records/annonces/([0-9]+)"/#).compactMap { Int($0.output.1) }
    }

    /// The conditions of a page's chips, unescaped.
    static func conditions(_ page: String) -> [String] {
        page.matches(of: #/data-condition="([^"]*)"/#).map { unescaped(String($0.output.1)) }
    }

    /// The unescaped value of the first attribute `attribute` of the tag that `marker` (text
    /// inside the tag, such as `id="next-page"`) is in.
    static func attribute(_ attribute: String, of marker: String, in page: String) throws -> String {
        let at = try #require(page.range(of: marker), "no \(marker) on the page")
        let start = try #require(page[..<at.lowerBound].range(of: "<", options: .backwards)).lowerBound
        let end = try #require(page[at.upperBound...].range(of: ">")).upperBound
        let tag = page[start..<end]
        let value = try #require(
            tag.firstMatch(of: try Regex<(Substring, Substring)>(" \(attribute)=\"([^\"]*)\"")), "\(tag)")
        return unescaped(String(value.output.1))
    }

    /// A link of the entity page as a request target (`?...` is relative to the entity's page).
    static func target(_ href: String) -> String { href.hasPrefix("?") ? "/entities/annonce" + href : href }

    static func unescaped(_ html: String) -> String {
        html.replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
            .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&amp;", with: "&")
    }

    @Test(arguments: HarnessStore.available)
    func filtersReadASpaceAsPlusOrPercent20AndAPlusAsPercent2B(store: HarnessStore) async throws {
        let (harness, server) = try await Self.harness(store)
        defer { server.stop() }
        try await ServedStore.serve(harness) { client in
            #expect(try await Self.ids(client, "where=ville%3DSaint+Malo") == [1, 3, 5, 6])
            #expect(try await Self.ids(client, "where=ville%3DSaint%20Malo") == [1, 3, 5, 6])
            #expect(try await Self.ids(client, "where=ville%3DSaint%2BMalo") == [2])
            // The page's filter form: field, operator and value.
            #expect(try await Self.ids(client, "field=ville&op=%3D&value=Saint+Malo") == [1, 3, 5, 6])
            #expect(try await Self.ids(client, "field=ville&op=%3D&value=Saint%2BMalo") == [2])
            // The ~ (contains) filter.
            #expect(try await Self.ids(client, "where=titre~cuir+noir") == [1])
            #expect(try await Self.ids(client, "where=titre~cuir%20noir") == [1])
            #expect(try await Self.ids(client, "where=titre~cuir%2Btissu") == [2])
            #expect(try await Self.ids(client, "field=titre&op=~&value=cuir+noir") == [1])
            // The page shows the condition as it was typed.
            let page = try await Self.page(client, "/entities/annonce?sort=id&field=ville&op=%3D&value=Saint+Malo")
            #expect(Self.conditions(page) == ["ville=Saint Malo"])
            #expect(Self.ids(page) == [1, 3, 5, 6])
        }
    }

    @Test(arguments: HarnessStore.available)
    func aSearchReadsASpaceAsPlusOrPercent20(store: HarnessStore) async throws {
        let (harness, server) = try await Self.harness(store)
        defer { server.stop() }
        try await ServedStore.serve(harness) { client in
            #expect(Set(try await Self.ids(client, "q=canap%C3%A9+cuir")) == [1, 2])
            #expect(Set(try await Self.ids(client, "q=canap%C3%A9%20cuir")) == [1, 2])
            #expect(try await Self.ids(client, "q=cuir%2Btissu") == [2])
            // The search box and the export command show the words as they were typed.
            for query in ["q=canap%C3%A9+cuir", "q=canap%C3%A9%20cuir"] {
                let page = try await Self.page(client, "/entities/annonce?" + query)
                #expect(try Self.attribute("value", of: #"id="search-q""#, in: page) == "canapé cuir")
                #expect(page.contains("--search &#39;canapé cuir&#39;"), "\(query)")
            }
            let plus = try await Self.page(client, "/entities/annonce?q=cuir%2Btissu")
            #expect(try Self.attribute("value", of: #"id="search-q""#, in: plus) == "cuir+tissu")
        }
    }

    @Test func facetsAndDownloadsReadAPlusAsASpace() async throws {
        let (harness, server) = try await Self.harness(.sqlite)
        defer { server.stop() }
        try await ServedStore.serve(harness) { client in
            let response = try await client.execute(
                uri: "/api/entities/annonce/facets?where=ville%3DSaint+Malo", method: .get)
            let facets = (try ServedStore.json(response) as? JSON)?["facets"] as? [JSON] ?? []
            let etat = try #require(facets.first { $0["field"] as? String == "etat" }, "\(facets)")
            let counts = (etat["counts"] as? [JSON] ?? []).map { ($0["value"] as? String ?? "", $0["rows"] as? Int) }
            #expect(counts.map(\.0) == ["neuf", "très bon"] && counts.map(\.1) == [2, 2], "\(counts)")
            for (query, expected) in [
                ("where=ville%3DSaint+Malo", [1, 3, 5, 6]), ("where=ville%3DSaint%20Malo", [1, 3, 5, 6]),
                ("where=ville%3DSaint%2BMalo", [2]),
            ] {
                let download = try await client.execute(
                    uri: "/api/entities/annonce/export.json?sort=id&" + query, method: .get)
                let rows = try ServedStore.json(download) as? [JSON] ?? []
                #expect(rows.compactMap { $0["id"] as? Int }.sorted() == expected, "\(query)")
            }
        }
    }

    @Test func theSQLPageAndAPIReadAPlusAsASpace() async throws {
        let (harness, server) = try await Self.harness(.sqlite)
        defer { server.stop() }
        try await ServedStore.serve(harness) { client in
            let statement = "sql=SELECT+id+FROM+annonce+WHERE+ville+%3D+:v+ORDER+BY+id"
            for (value, expected) in [
                ("Saint+Malo", [1, 3, 5, 6]), ("Saint%20Malo", [1, 3, 5, 6]), ("Saint%2BMalo", [2]),
            ] {
                let answer = try await client.execute(uri: "/api/sql?\(statement)&v=\(value)", method: .get)
                let rows = (try ServedStore.json(answer) as? JSON)?["rows"] as? [[Any]] ?? []
                #expect(rows.compactMap { $0.first as? Int } == expected, "\(value): \(ServedStore.text(answer))")
            }
            let page = try await Self.page(client, "/sql?\(statement)&v=Saint+Malo")
            #expect(try Self.attribute("value", of: #"id="parameter-v""#, in: page) == "Saint Malo")
            #expect(page.contains(#"<span id="sql-count">4 rows</span>"#))
        }
    }

    /// A filter and a search holding `+`, `&`, `#`, `%`, spaces and an accent, sent by the
    /// filter form: every link of the page (next and first page, sort, a chip's removal, the
    /// download, "open in SQL" and the SQL page's own links) leads to the same view.
    @Test func everyLinkOfAPageCarriesAnAwkwardFilterWhole() async throws {
        let (harness, server) = try await Self.harness(.sqlite)
        defer { server.stop() }
        try await ServedStore.serve(harness) { client in
            let filter = "etat=" + Self.awkward
            let start = try await Self.page(
                client,
                "/entities/annonce?where=\(Self.form(filter))&sort=id&limit=1&field=ville&op=%3D&value=Brest")
            #expect(Self.conditions(start) == [filter, "ville=Brest"])
            #expect(Self.ids(start) == [7])

            let next = try await Self.page(
                client, Self.target(try Self.attribute("href", of: #"id="next-page""#, in: start)))
            #expect(Self.conditions(next) == [filter, "ville=Brest"])
            #expect(Self.ids(next) == [8])
            let first = try await Self.page(
                client, Self.target(try Self.attribute("href", of: #"id="first-page""#, in: next)))
            #expect(Self.ids(first) == [7])

            let sorted = try await Self.page(
                client, Self.target(try Self.attribute("href", of: #"data-field="id""#, in: start)))
            #expect(Self.conditions(sorted) == [filter, "ville=Brest"])
            #expect(Self.ids(sorted) == [8], "sorted by -id")

            let removed = try await Self.page(
                client, Self.target(try Self.attribute("href", of: #"title="remove""#, in: start)))
            #expect(Self.conditions(removed) == ["ville=Brest"])

            let download = try await client.execute(
                uri: try Self.attribute("href", of: #"id="download-json""#, in: start), method: .get)
            let rows = try ServedStore.json(download) as? [JSON] ?? []
            #expect(rows.compactMap { $0["id"] as? Int } == [7, 8])

            let sql = try await Self.page(
                client, try Self.attribute("href", of: #"id="open-in-sql""#, in: start))
            #expect(sql.contains(#"<span id="sql-count">2 rows</span>"#), "\(sql)")
            #expect(sql.contains("a+b &amp; c #1 100% é"))
            let shared = try await Self.page(client, try Self.attribute("href", of: #"id="sql-link""#, in: sql))
            #expect(shared.contains(#"<span id="sql-count">2 rows</span>"#))
            let csv = ServedStore.text(
                try await client.execute(uri: try Self.attribute("href", of: #"id="sql-csv""#, in: sql), method: .get))
            #expect(csv.split(whereSeparator: \.isNewline).count == 3, "\(csv)")

            // A search with the same characters, sent by the search form, stays in the links.
            let searched = try await Self.page(client, "/entities/annonce?q=\(Self.form("chaise +&#%"))&limit=1")
            let nextSearched = try await Self.page(
                client, Self.target(try Self.attribute("href", of: #"id="next-page""#, in: searched)))
            #expect(try Self.attribute("value", of: #"id="search-q""#, in: nextSearched) == "chaise +&#%")
        }
    }

    @Test func aQueryThatIsNotPercentEncodedUTF8IsABadRequest() async throws {
        let (harness, server) = try await Self.harness(.sqlite)
        defer { server.stop() }
        try await ServedStore.serve(harness) { client in
            for target in ["/api/entities/annonce/rows?feed=%FF", "/entities/annonce?where=ville%3D%E9"] {
                let answer = try await client.execute(uri: target, method: .get)
                #expect(answer.status == .badRequest, "\(target): \(answer.status)")
                #expect(ServedStore.text(answer).contains("not percent-encoded UTF-8"), "\(target)")
            }
        }
    }
}

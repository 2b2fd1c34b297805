import FeedEngine
import FeedKit
import FeedServer
import FeedTestSupport
import Foundation
import JSONFeed
import Synchronization
import Testing

/// `?q=` on `/api/entities/E/rows` and the entity page: the full-text index of a json feed's
/// `search:` fields, on both stores, served by a real server from ads a loopback API sends.
@Suite struct ServeSearchTests {
    typealias JSON = [String: Any]

    /// French ads: "canapé" twice in the first (title and text), once in the second and the
    /// third (whose text holds a script), not in the fourth.
    static let ads: [String] = [
        #"{"id": 1, "titre": "Canapé en cuir", "texte": "Beau canapé, cuir véritable, très bon état", "prix": 300}"#,
        #"{"id": 2, "titre": "Table basse", "texte": "Table en chêne et pieds en métal, à poser devant un canapé ou un fauteuil de salon", "prix": 80}"#,
        #"{"id": 3, "titre": "Coussins", "texte": "Canapé <script>alert('x')</script> à donner", "prix": 0}"#,
        #"{"id": 4, "titre": "Lampe", "texte": "Lampe de chevet", "prix": 15}"#,
    ]

    /// A feed of the ads the server holds, replacing its rows each pass, with `search:` when
    /// `search` is set.
    static func yaml(_ server: LoopbackServer, search: Bool = true, price: String = "int") -> String {
        """
        feeds:
          - name: annonces
            adapter: json
            url: \(server.url("/ads"))
            entity: annonce
            key: id
            write: replace
        \(search ? "    search: [titre, texte]\n" : "")    fields:
              id: int
              titre: string
              texte: string
              prix: \(price)
        """
    }

    /// The ads the server sends, changed between passes.
    final class Ads: Sendable {
        let list = Mutex(ServeSearchTests.ads)
    }

    /// A server of `ads`, a harness of its feed that ran once.
    static func harness(_ store: HarnessStore, ads: Ads, search: Bool = true) async throws -> (
        FeedHarness, LoopbackServer
    ) {
        let server = try LoopbackServer { _ in .json("[" + ads.list.withLock { $0 }.joined(separator: ",") + "]") }
        let harness = try FeedHarness(
            registry: AdapterRegistry([JSONAdapter.self]), yaml: yaml(server, search: search), store: store)
        let report = try await harness.run()
        #expect(report.feeds.allSatisfy { $0.status == FeedReport.Status.ok }, "\(report.feeds)")
        return (harness, server)
    }

    /// The rows of `/api/entities/annonce/rows?QUERY`, and the answer.
    static func rows(_ client: ServedClient, _ query: String) async throws -> (status: Int, body: JSON) {
        let response = try await client.execute(uri: "/api/entities/annonce/rows?" + query, method: .get)
        return (Int(response.status.code), try ServedStore.json(response) as? JSON ?? [:])
    }

    static func ids(_ body: JSON) -> [Int] { (body["rows"] as? [JSON] ?? []).compactMap { $0["id"] as? Int } }

    /// `canapé`, percent-encoded.
    static let canape = "canap%C3%A9"

    @Test(arguments: HarnessStore.available)
    func aFrenchWordFindsTheAdsHoldingItBestFirstPagedAndFiltered(store: HarnessStore) async throws {
        let ads = Ads()
        let (harness, server) = try await Self.harness(store, ads: ads)
        defer { server.stop() }
        try await ServedStore.serve(harness) { client in
            let found = try await Self.rows(client, "q=\(Self.canape)")
            #expect(found.status == 200)
            #expect(Self.ids(found.body).first == 1, "the ad with the word twice comes first: \(Self.ids(found.body))")
            #expect(Set(Self.ids(found.body)) == [1, 2, 3])
            let ranks = (found.body["rows"] as? [JSON] ?? []).compactMap { $0["_rank"] as? Double }
            #expect(ranks.count == 3 && ranks == ranks.sorted(by: >))
            // Any case; every word must be there; accents count.
            let cuir = try await Self.rows(client, "q=CUIR").body
            #expect(Self.ids(cuir) == [1])
            let both = try await Self.rows(client, "q=\(Self.canape)+salon").body
            #expect(Self.ids(both) == [2])
            let unaccented = try await Self.rows(client, "q=canape").body
            #expect(Self.ids(unaccented).isEmpty)
            // With the view's filters and sort, and a page at a time.
            let cheap = try await Self.rows(client, "q=\(Self.canape)&where=prix%3C100&sort=-prix").body
            #expect(Self.ids(cheap) == [2, 3])
            var paged: [Int] = []
            var after: String?
            for _ in 0..<5 {
                let page = try await Self.rows(
                    client, "q=\(Self.canape)&limit=1" + (after.map { "&after=\($0)" } ?? ""))
                paged += Self.ids(page.body)
                after = page.body["next"] as? String
                if after == nil { break }
            }
            #expect(paged == Self.ids(found.body))
            // The download is the same search, as export --search writes it.
            let download = try ServedStore.json(
                try await client.execute(uri: "/api/entities/annonce/export.json?q=\(Self.canape)", method: .get))
            #expect(((download as? [JSON]) ?? []).compactMap { $0["id"] as? Int } == Self.ids(found.body))
        }
    }

    @Test(arguments: HarnessStore.available)
    func matchesAreMarkedAndEverythingElseEscaped(store: HarnessStore) async throws {
        let ads = Ads()
        let (harness, server) = try await Self.harness(store, ads: ads)
        defer { server.stop() }
        try await ServedStore.serve(harness) { client in
            let found = try await Self.rows(client, "q=\(Self.canape)")
            let rows = try #require(found.body["rows"] as? [JSON])
            let highlights = try #require(found.body["highlights"] as? [[String: String]])
            let third = try #require(rows.firstIndex { $0["id"] as? Int == 3 })
            #expect(
                highlights[third]["texte"]
                    == "<mark>Canapé</mark> &lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; à donner")
            #expect(highlights[third]["titre"] == "Coussins")
            let page = ServedStore.text(
                try await client.execute(uri: "/entities/annonce?q=\(Self.canape)", method: .get))
            #expect(page.contains("<mark>Canapé</mark> &lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;"))
            #expect(!page.contains("<script>alert"))
            #expect(page.contains(#"id="search-q""#))
        }
    }

    /// A column whose type changes (integer to decimal, which SQLite stores as text: the table
    /// is rebuilt, and its triggers with it) keeps the index, which finds the pass's new row too.
    @Test(arguments: HarnessStore.available)
    func aTableRebuiltForAConversionKeepsItsIndex(store: HarnessStore) async throws {
        let ads = Ads()
        let (harness, server) = try await Self.harness(store, ads: ads)
        defer { server.stop() }
        try harness.setConfig(Self.yaml(server, price: "decimal"))
        ads.list.withLock {
            $0.append(#"{"id": 5, "titre": "Canapé d'angle", "texte": "Convertible, tissu gris", "prix": 450}"#)
        }
        let report = try await harness.run()
        #expect(report.feeds.first?.status == FeedReport.Status.ok, "\(report.feeds)")
        try await ServedStore.serve(harness) { client in
            let found = try await Self.rows(client, "q=\(Self.canape)").body
            #expect(Set(Self.ids(found)) == [1, 2, 3, 5])
            let tissu = try await Self.rows(client, "q=tissu").body
            #expect(Self.ids(tissu) == [5])
        }
    }

    @Test(arguments: HarnessStore.available)
    func deletedRowsAreNotFound(store: HarnessStore) async throws {
        let ads = Ads()
        let (harness, server) = try await Self.harness(store, ads: ads)
        defer { server.stop() }
        ads.list.withLock { _ = $0.removeFirst() }
        _ = try await harness.run()
        try await ServedStore.serve(harness) { client in
            let deleted = try await Self.rows(client, "q=cuir").body
            #expect(Self.ids(deleted).isEmpty)
            let kept = try await Self.rows(client, "q=\(Self.canape)").body
            #expect(Set(Self.ids(kept)) == [2, 3])
        }
    }

    @Test(arguments: HarnessStore.available)
    func searchDeclaredOnAnExistingEntityFindsItsRowsAndRemovingItDropsTheIndex(store: HarnessStore) async throws {
        let ads = Ads()
        let (harness, server) = try await Self.harness(store, ads: ads, search: false)
        defer { server.stop() }
        try await ServedStore.serve(harness) { client in
            let refused = try await Self.rows(client, "q=cuir")
            #expect(refused.status == 400)
            let message = refused.body["error"] as? String ?? ""
            #expect(message.contains("'annonce'") && message.contains("search: ["), "\(message)")
        }
        try harness.setConfig(Self.yaml(server))
        let declared = try harness.config().declaredEntities.map { entity in entity.schema }
        let stored = try await harness.schemas()
        let plan = SchemaPlan.changes(declared: declared, stored: stored)
        #expect(plan == [.index(entity: "annonce", columns: ["titre", "texte"])])
        let report = try await harness.run()
        #expect(report.feeds.first?.counts.inserted == 0, "the rows are as they were: only the index is new")
        try await ServedStore.serve(harness) { client in
            let old = try await Self.rows(client, "q=cuir").body
            #expect(Self.ids(old) == [1])
        }
        try harness.setConfig(Self.yaml(server, search: false))
        _ = try await harness.run()
        try await ServedStore.serve(harness) { client in
            let dropped = try await Self.rows(client, "q=cuir").status
            #expect(dropped == 400)
        }
        let indexes =
            store == .sqlite
            ? try await harness.rows("SELECT name FROM sqlite_master WHERE name LIKE '_search_%'")
            : try await harness.rows(
                "SELECT indexname AS name FROM pg_indexes WHERE schemaname = current_schema() AND indexname LIKE '_search_%'"
            )
        #expect(indexes.isEmpty)
    }
}

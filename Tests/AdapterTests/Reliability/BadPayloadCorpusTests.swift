import DestinationFeed
import FeedEngine
import FeedFixtures
import FeedKit
import FeedTestSupport
import Foundation
import FruitFeed
import JSONFeed
import Testing

/// A corpus of malformed payloads per adapter, each listed in its folder's `expected.txt` as
/// `file | fails | words` (the feed fails with an error containing the words and keeps its rows)
/// or `file | rejects | words` (the feed commits and a reject's `path: reason` contains the words).
///
/// Classified and currency keep their own corpora (ClassifiedBadPayloadTests,
/// CurrencyBadPayloadTests).
@Suite("Reliability: bad payload corpus", .serialized)
struct BadPayloadCorpusTests {
    /// One malformed payload and what it must produce.
    struct BadPayload: Sendable, CustomTestStringConvertible {
        enum Outcome: String, Sendable { case fails, rejects }

        var corpus: Corpus
        var file: String
        var outcome: Outcome
        var words: String

        var testDescription: String { "\(corpus.rawValue)/\(file)" }
    }

    /// An adapter's corpus: where its files are and how a feed reads one.
    enum Corpus: String, Sendable, CaseIterable {
        case fruit
        case deliveries
        case flights
        case json

        var folder: String {
            switch self {
            case .fruit: "fruit/bad"
            case .deliveries: "destination/bad-deliveries"
            case .flights: "destination/bad-flights"
            case .json: "json/bad"
            }
        }

        /// The file the feed reads, which the bad payload replaces.
        var target: String {
            switch self {
            case .fruit: "data.json"
            case .deliveries: "page-0.json"
            case .flights: "flights.json"
            case .json: "items.json"
            }
        }

        var yaml: String {
            switch self {
            case .fruit: "{ name: feed, adapter: fruit, url: data.json }"
            case .deliveries: #"{ name: feed, adapter: destination, source: deliveries, url: "page-{offset}.json" }"#
            case .flights: "{ name: feed, adapter: destination, source: flights, url: flights.json }"
            case .json:
                """
                { name: feed, adapter: json, url: items.json, records: $.items, entity: item, key: id,
                      fields: { id: int, name: string, price: decimal, tags: { type: list, of: string } } }
                """
            }
        }

        var table: String {
            switch self {
            case .fruit: "fruit"
            case .deliveries: "delivery"
            case .flights: "flight_offer"
            case .json: "item"
            }
        }

        func goodBody() throws -> Data {
            switch self {
            case .fruit: Data(#"{"fruit":[{"type":"apple","price":149,"weight":120}]}"#.utf8)
            case .deliveries: Data(#"[{"id": 1, "description": "a parcel"}, {"id": 2}]"#.utf8)
            case .flights: try TestFixtures.data("destination/flights-ten.json")
            case .json: Data(#"{"items":[{"id":1,"name":"a","price":1.50,"tags":["t1","t2"]}]}"#.utf8)
            }
        }
    }

    static let corpus: [BadPayload] = Corpus.allCases.flatMap { corpus -> [BadPayload] in
        let url = TestFixtures.directory.appendingPathComponent(corpus.folder).appendingPathComponent("expected.txt")
        let text = (try? String(contentsOf: url, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line -> BadPayload? in
            let parts = line.split(separator: "|", maxSplits: 2).map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 3, let outcome = BadPayload.Outcome(rawValue: parts[1]) else { return nil }
            return BadPayload(corpus: corpus, file: parts[0], outcome: outcome, words: parts[2])
        }
    }

    @Test func everyAdapterHasAtLeastTenBadPayloads() {
        for corpus in Corpus.allCases {
            #expect(Self.corpus.filter { $0.corpus == corpus }.count >= 10, "\(corpus)")
        }
    }

    @Test func everyFileOfACorpusIsListed() throws {
        for corpus in Corpus.allCases {
            let folder = TestFixtures.directory.appendingPathComponent(corpus.folder)
            let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0 != "expected.txt" }
            let listed = Self.corpus.filter { $0.corpus == corpus }.map(\.file)
            #expect(files.sorted() == listed.sorted(), "\(corpus)")
        }
    }

    @Test(arguments: corpus)
    func aBadPayloadIsRejectedWithReasonsOrFailsTheFeedClearly(_ payload: BadPayload) async throws {
        let corpus = payload.corpus
        let harness = try FeedHarness(
            registry: AdapterRegistry([FruitAdapter.self, DestinationAdapter.self, JSONAdapter.self]),
            yaml: "defaults: { max_reject_ratio: 1 }\nfeeds:\n  - \(corpus.yaml)\n",
            files: [corpus.target: try corpus.goodBody()])
        let first = try #require(try await harness.run().feeds.first)
        #expect(first.status != .failed, "\(first.error ?? "")")  // flights-ten.json holds one bad offer
        let before = try await harness.rows("SELECT * FROM \"\(corpus.table)\" ORDER BY _key")
        #expect(!before.isEmpty)

        try harness.write(corpus.target, try TestFixtures.data("\(corpus.folder)/\(payload.file)"))
        let feed = try #require(try await harness.run().feeds.first)
        switch payload.outcome {
        case .fails:
            #expect(feed.status == .failed)
            let error = try #require(feed.error)
            #expect(error.contains("feed 'feed'") && error.contains(corpus.target), "\(error)")
            #expect(error.contains(payload.words), "\(error)")
            #expect(try await harness.rows("SELECT * FROM \"\(corpus.table)\" ORDER BY _key") == before)
        case .rejects:
            #expect(feed.status == .okWithRejects, "\(feed.error ?? "")")
            let reasons = try await harness.rows("SELECT path, reason FROM _rejects ORDER BY id").map { row in
                "\(row["path"].map(Self.text) ?? ""): \(row["reason"].map(Self.text) ?? "")"
            }
            #expect(feed.counts.rejected > 0)
            #expect(reasons.contains { $0.contains(payload.words) }, "\(reasons)")
        }
    }

    private static func text(_ value: FieldValue) -> String { if case .text(let text) = value { text } else { "" } }
}

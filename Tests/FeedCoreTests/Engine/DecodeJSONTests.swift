import FeedCore
import FeedTestSupport
import Foundation
import Testing

/// The adapter of the README's "Writing an adapter" section, decoding with `FeedPass.decodeJSON`.
private struct EchoAdapter: FeedAdapter {
    struct Options: Decodable, Sendable { var url: String }

    static let description = AdapterDescription(
        name: "echo", summary: "Stores a list of names.", options: [OptionHelp("url", "string", "where the list is")],
        entities: [EntitySchema(name: "name", columns: [Column("name", .text)], key: ["name"])])

    let options: Options
    init(options: Options, feed: FeedSetup) throws { self.options = options }

    func run(_ pass: FeedPass) async throws {
        let response = try await pass.fetch(FetchRequest(url: options.url))
        let names = try pass.decodeJSON([String].self, from: response)
        let schema = Self.description.entities[0]
        try await pass.write(names.map { try EntityRecord(schema: schema, fields: ["name": .text($0)]) })
    }
}

@Suite("FeedPass.decodeJSON")
struct DecodeJSONTests {
    func harness(_ body: String) throws -> FeedHarness {
        try FeedHarness(
            registry: AdapterRegistry([EchoAdapter.self]),
            yaml: "feeds:\n  - { name: echo, adapter: echo, url: names.json }\n", files: ["names.json": Data(body.utf8)]
        )
    }

    @Test func theReadmeAdapterStoresItsNames() async throws {
        let harness = try harness(#"["ada", "grace"]"#)
        let report = try await harness.run()
        #expect(report.feeds.first?.counts.inserted == 2)
        #expect(try harness.count("name") == 2)
    }

    @Test func aValueOfTheWrongTypeFailsTheFeedWithItsJSONPath() async throws {
        let harness = try harness(#"["ada", 42]"#)
        let feed = try #require(try await harness.run().feeds.first)
        #expect(feed.status == .failed)
        #expect(feed.error?.contains("feed 'echo': names.json at $[1]: expected String") == true, "\(feed.error ?? "")")
    }
}

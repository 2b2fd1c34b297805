import FeedEngine
import FeedFixtures
import FeedKit
import FeedTestSupport
import Foundation
import Testing

/// Writes the pass's start as a record and queues one outbox event, to observe the engine's
/// `startDate` and `deliversOutbox`.
private struct StartAdapter: FeedAdapter {
    struct Options: Decodable, Sendable { var outbox: String }

    static let schema = EntitySchema(
        name: "start", columns: [Column("id", .text, nullable: false), Column("at", .timestamp)], key: ["id"])
    static let description = AdapterDescription(
        name: "start", summary: "The pass's start.", options: [], entities: [schema])

    let options: Options
    init(options: Options, feed: FeedSetup) { self.options = options }

    func run(_ pass: FeedPass) async throws {
        let record = try EntityRecord(
            schema: Self.schema, fields: ["id": .text("1"), "at": .text(Timestamp.string(pass.startedAt))])
        try await pass.write(RecordBatch(records: [record]))
        try await pass.enqueueOutbox([options.outbox])
    }
}

@Suite("Engine start date and outbox switch")
struct EngineStartDateTests {
    @Test(arguments: HarnessStore.available)
    func passesStartAtTheFixedStartDateAndDeliverNoOutboxWhenSwitchedOff(driver: HarnessStore) async throws {
        let server = try LoopbackServer { _ in .text("") }
        defer { server.stop() }
        let harness = try FeedHarness(
            registry: AdapterRegistry([StartAdapter.self]),
            yaml: "feeds:\n  - { name: clock, adapter: start, outbox: \"\(server.url("/event"))\" }\n", store: driver)
        let config = try harness.config()
        let fixed = Date(timeIntervalSince1970: 1_577_836_800)  // 2020-01-01T00:00:00Z
        let engine = try await Engine.open(config, startDate: fixed, deliversOutbox: false)
        let report = await engine.run()
        #expect(report.succeeded)
        let at = try await harness.rows("SELECT at FROM start").first?["at"]
        guard case .text(let text)? = at else { Issue.record("no start time: \(String(describing: at))"); return }
        #expect(ISO8601.parse(text) == fixed.timeIntervalSince1970)
        #expect(server.requestCount == 0)
        #expect(try await harness.count("_outbox") == 1, "the event stays queued for a normal run")
    }
}

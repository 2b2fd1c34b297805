import FeedEngine
import FeedKit
import FeedTestSupport
import Foundation
import Testing

/// Declares entity `found` during its pass (with `columns` columns), writes a record to it,
/// and then fails when `fail` is set, or declares it again with one column more when `redeclare` is.
private struct FoundAdapter: FeedAdapter {
    struct Options: Decodable, Sendable {
        var fail: Bool?
        var redeclare: Bool?
    }

    static let description = AdapterDescription(
        name: "found", summary: "Declares its entity during the pass.", options: [], entities: [])

    static func schema(extra: Bool = false) -> EntitySchema {
        EntitySchema(
            name: "found",
            columns: [Column("id", .integer, nullable: false)] + (extra ? [Column("name", .text)] : []), key: ["id"])
    }

    struct Failure: Error {}

    let options: Options
    init(options: Options, feed: FeedSetup) { self.options = options }

    func run(_ pass: FeedPass) async throws {
        try await pass.declare(EntityBinding(Self.schema()))
        try await pass.declare(EntityBinding(Self.schema()))  // the same again: nothing happens
        try await pass.write(
            RecordBatch(records: [try EntityRecord(schema: Self.schema(), fields: ["id": .integer(1)])]))
        if options.redeclare == true { try await pass.declare(EntityBinding(Self.schema(extra: true))) }
        if options.fail == true { throw Failure() }
    }
}

@Suite("FeedPass.declare: entities declared during a pass")
struct DeclaredEntityTests {
    static func harness(_ options: String = "", driver: HarnessStore) throws -> FeedHarness {
        try FeedHarness(
            registry: AdapterRegistry([FoundAdapter.self]),
            yaml: "feeds:\n  - { name: finder, adapter: found\(options) }\n", store: driver)
    }

    @Test(arguments: HarnessStore.available)
    func aDeclaredEntityGetsItsTableSchemaAndViewAndItsRecords(driver: HarnessStore) async throws {
        let harness = try Self.harness(driver: driver)
        let report = try #require(try await harness.run().feeds.first)
        #expect(report.status == .ok, "\(report.error ?? "")")
        #expect(try await harness.count("found") == 1)
        #expect(try await harness.schemas()["found"] == FoundAdapter.schema())
        #expect(try await harness.tableNames(like: "found%") == ["found", "found_view"])
    }

    @Test(arguments: HarnessStore.available)
    func aFailedPassTakesItsDeclaredEntityWithIt(driver: HarnessStore) async throws {
        let harness = try Self.harness(", fail: true", driver: driver)
        let report = try #require(try await harness.run().feeds.first)
        #expect(report.status == .failed)
        #expect(try await harness.tableNames(like: "found%").isEmpty)
        #expect(try await harness.schemas()["found"] == nil)
    }

    @Test(arguments: HarnessStore.available)
    func declaringAnEntityAgainWithAnotherSchemaFailsThePass(driver: HarnessStore) async throws {
        let harness = try Self.harness(", redeclare: true", driver: driver)
        let report = try #require(try await harness.run().feeds.first)
        #expect(report.status == .failed)
        #expect(report.error?.contains("declared entity 'found' again with another schema or write mode") == true)
    }
}

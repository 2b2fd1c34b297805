import FeedEngine
import FeedKit
import FeedTestSupport
import Foundation
import SingerFeed
import Testing

/// Names a tap chooses as it runs (streams and properties), on PostgreSQL, which cuts names
/// over 63 bytes and looks `pg_` names up in its own catalog first: the pass fails before any
/// table is made, and says which name and why.
@Suite("singer adapter on PostgreSQL: names a tap chooses")
struct SingerPostgresNameTests {
    /// The report of one pass of `named_stream_tap.py` with `arguments`, and the harness.
    static func run(_ arguments: [String]) async throws -> (FeedReport, FeedHarness) {
        let harness = try SingerFeedTest.harness("named_stream_tap.py", arguments: arguments, driver: .postgres)
        return (try #require(try await harness.run().feeds.first), harness)
    }

    /// The user tables of the harness's schema, Feedwork's own (`_runs`...) left out.
    static func entityTables(_ harness: FeedHarness) async throws -> [String] {
        try await harness.tableNames().filter { !$0.hasPrefix("_") }
    }

    @Test func aStreamNamedAfterACatalogTableFailsThePassAndLeavesTheCatalogAlone() async throws {
        let (report, harness) = try await Self.run(["--stream", "pg_class"])
        #expect(report.status == .failed)
        #expect(report.error?.contains("entity 'pg_class': names beginning with pg_ are PostgreSQL's") == true)
        let touched = try await harness.rows(
            "SELECT count(*) AS n FROM pg_attribute WHERE attrelid = 'pg_catalog.pg_class'::regclass AND attname IN ('_feed', 'value')"
        )
        #expect(touched.first?["n"] == .integer(0))
        await #expect(try Self.entityTables(harness).isEmpty)
    }

    @Test func aStreamNameOverTheLimitFailsThePassNamingTheLimit() async throws {
        let name = "s" + String(repeating: "x", count: 69)
        let (report, harness) = try await Self.run(["--stream", name])
        #expect(report.status == .failed)
        #expect(
            report.error?.contains("entity '\(name)': the table '\(name)' is 70 bytes, over PostgreSQL's limit of 63")
                == true)
        await #expect(try Self.entityTables(harness).isEmpty)
    }

    @Test func twoStreamsAlikeInTheirFirst63BytesAreNotOneTable() async throws {
        let stem = "s" + String(repeating: "x", count: 62)
        let (report, harness) = try await Self.run(["--stream", stem + "a", "--stream", stem + "b"])
        #expect(report.status == .failed)
        #expect(report.error?.contains("entity '\(stem)a'") == true)
        await #expect(try Self.entityTables(harness).isEmpty)
    }

    @Test func aNameWhoseIndexWouldBeCutFailsToo() async throws {
        // 55 bytes: the table fits, its `_feed_key` index (64 bytes) would not.
        let name = "s" + String(repeating: "x", count: 54)
        let (report, _) = try await Self.run(["--stream", name])
        #expect(report.status == .failed)
        #expect(report.error?.contains("the view '\(name)_view' is 60 bytes") == false)
        #expect(report.error?.contains("the staging table '_stage_\(name)' is 62 bytes") == false)
        #expect(report.error?.contains("the index '\(name)_feed_key' is 64 bytes") == true)
    }

    @Test func aPropertyNameOverTheLimitFailsThePass() async throws {
        let property = "p" + String(repeating: "x", count: 63)
        let (report, harness) = try await Self.run(["--stream", "users", "--property", property])
        #expect(report.status == .failed)
        #expect(report.error?.contains("entity 'users': the column '\(property)' is 64 bytes") == true)
        await #expect(try Self.entityTables(harness).isEmpty)
    }

    @Test func namesAtTheLimitAreKeptWhole() async throws {
        let stream = "s" + String(repeating: "x", count: 53)
        let property = "p" + String(repeating: "x", count: 62)
        let (report, harness) = try await Self.run(["--stream", stream, "--property", property])
        #expect(report.status == .ok, "\(report.error ?? "")")
        await #expect(try Self.entityTables(harness) == [stream, stream + "_view"])
        let rows = try await harness.rows("SELECT \"\(property)\" AS p FROM \"\(stream)\"")
        #expect(rows.first?["p"] == .text("x"))
    }
}

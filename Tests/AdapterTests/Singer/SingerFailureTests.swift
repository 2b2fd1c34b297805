import FeedEngine
import FeedKit
import FeedTestSupport
import Foundation
import SingerFeed
import Testing

@Suite("singer adapter: failing taps")
struct SingerFailureTests {
    /// A store loaded once by the good tap, then the feed switched to `script`, run, and the
    /// store compared with what it held before: the report of the failed pass.
    static func failAfterAGoodPass(
        _ script: String, arguments: [String] = [], environment: [String: String] = [:]
    ) async throws -> (FeedReport, before: [String], after: [String]) {
        let harness = try SingerFeedTest.harness("good_tap.py", environment: environment)
        let good = try #require(try await harness.run().feeds.first)
        #expect(good.status == .ok)
        let before = try await SingerFeedTest.snapshot(harness)
        try harness.setConfig(SingerFeedTest.yaml(script, arguments: arguments))
        let report = try #require(try await harness.run().feeds.first)
        return await (report, before, try SingerFeedTest.snapshot(harness))
    }

    @Test func aTapThatExitsNonZeroFailsThePassAndChangesNothing() async throws {
        let (report, before, after) = try await Self.failAfterAGoodPass("failing_tap.py")
        #expect(report.status == .failed)
        #expect(after == before)
        // The stream it announced got no table: its declaration rolled back with the pass.
        #expect(!after.contains { $0.contains("audit") })
    }

    @Test func theErrorNamesTheFeedTheCommandTheStatusAndTheLastStderrLines() async throws {
        let (report, _, _) = try await Self.failAfterAGoodPass("failing_tap.py")
        let error = try #require(report.error)
        #expect(error.hasPrefix("feed 'taps': tap 'python3 "))
        #expect(error.contains("failing_tap.py': exited with status 3"))
        #expect(error.contains("fetching page 2"))
        #expect(error.contains("HTTP 401 with token none: unauthorized"))
    }

    @Test(arguments: HarnessStore.available)
    func secretsInTheCommandAndStderrAreRedacted(driver: HarnessStore) async throws {
        let harness = try SingerFeedTest.harness(
            "failing_tap.py", arguments: ["--token", "${TOKEN}"], environment: ["TOKEN": "hunter2-token"],
            driver: driver)
        let report = try #require(try await harness.run().feeds.first)
        let error = try #require(report.error)
        #expect(!error.contains("hunter2-token"))
        #expect(error.contains("failing_tap.py --token ***': exited with status 3"))
        #expect(error.contains("HTTP 401 with token ***: unauthorized"))
    }

    @Test func aMalformedLineFailsThePassWithItsLineNumber() async throws {
        let (report, before, after) = try await Self.failAfterAGoodPass("malformed_tap.py")
        #expect(report.status == .failed)
        #expect(report.error?.contains("stdout line 3: malformed line: not JSON") == true)
        #expect(after == before)
    }

    @Test func aRecordBeforeItsSchemaFailsThePass() async throws {
        let (report, before, after) = try await Self.failAfterAGoodPass("orphan_record_tap.py")
        #expect(report.status == .failed)
        #expect(report.error?.contains("stdout line 3: a RECORD of stream 'orders' came before its SCHEMA") == true)
        #expect(after == before)
    }

    @Test(arguments: HarnessStore.available)
    func aRecordOfTheWrongTypeIsRejectedAndTheOthersKept(driver: HarnessStore) async throws {
        let harness = try SingerFeedTest.harness("wrong_type_tap.py", "    max_reject_ratio: 0.5", driver: driver)
        let report = try #require(try await harness.run().feeds.first)
        #expect(report.status == .okWithRejects)
        #expect(report.counts.inserted == 2)
        #expect(report.counts.rejected == 1)
        let rejects = try await harness.rows("SELECT entity, path, reason, raw, page FROM _rejects")
        #expect(SingerFeedTest.texts(rejects, "path") == ["$.record.score"])
        #expect(SingerFeedTest.texts(rejects, "reason") == ["expected a number, found a string 'high'"])
        #expect(SingerFeedTest.texts(rejects, "raw") == [#"{"id":2,"score":"high","active":true}"#])
        // The line of the tap's output the record was on.
        #expect(rejects.first?["page"] == .integer(3))
    }

    @Test(arguments: HarnessStore.available)
    func tooManyRejectedRecordsFailThePass(driver: HarnessStore) async throws {
        let harness = try SingerFeedTest.harness("wrong_type_tap.py", "    max_reject_ratio: 0", driver: driver)
        let report = try #require(try await harness.run().feeds.first)
        #expect(report.status == .failed)
        #expect(try await harness.tableNames(like: "users").isEmpty)
    }
}

import FeedEngine
import FeedKit
import FeedServer
import FeedTestSupport
import Foundation
import Testing

/// `/api/sql`, the SQL page and `feedwork mcp`'s path bound what a result holds: the bytes of
/// its values (8 MiB), the bytes of one value (256 KiB, cut with a marker), and the time of the
/// whole answer; a small result is as before.
@Suite struct ServeSQLBoundsTests {
    typealias JSON = [String: Any]

    /// About 1 GB of values: a thousand rows of 1 MB each.
    static func hugeResult(_ store: HarnessStore) -> String {
        switch store {
        case .sqlite:
            "SELECT randomblob(1000000) AS b FROM (WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM n"
                + " WHERE i < 1000) SELECT i FROM n)"
        case .postgres: "SELECT repeat('x', 1000000) AS b FROM generate_series(1, 1000)"
        }
    }

    /// One value of 1 MB.
    static func oneHugeValue(_ store: HarnessStore) -> String {
        switch store {
        case .sqlite: "SELECT 'a' || replace(hex(zeroblob(500000)), '0', 'x') AS v, 7 AS n"
        case .postgres: "SELECT 'a' || repeat('x', 1000000) AS v, 7 AS n"
        }
    }

    @Test(arguments: HarnessStore.available)
    func aResultFarOverTheByteLimitIsCutWithinTheTimeLimitAndSaysWhy(store: HarnessStore) async throws {
        let harness = try await ServedStore.harness(store)
        let settings = try ServeSQLTests.settings(harness, sql: SQLAccess(timeLimit: .seconds(20)))
        try await ServedStore.serve(settings) { client in
            let started = ContinuousClock.now
            let response = try await client.execute(uri: ServeSQLTests.uri(Self.hugeResult(store)), method: .get)
            let elapsed = ContinuousClock.now - started
            #expect(response.status == .ok, "\(ServedStore.text(response).prefix(300))")
            #expect(elapsed < .seconds(20))
            let size = response.body.readableBytes
            #expect(size < ReadOnlySQLRequest.defaultByteLimit + 64 << 10, "\(size) bytes")
            let document = try #require(try ServedStore.json(response) as? JSON)
            #expect(document["truncated"] as? Bool == true)
            let reason = try #require(document["truncated_reason"] as? String)
            #expect(reason.contains("byte limit"), "\(reason)")
            let rows = try #require(document["rows"] as? [[Any]])
            #expect(!rows.isEmpty && rows.count < 1000)
            let counted = "only the first \(rows.count) are shown; \(rows.count) values were longer"
            #expect(reason.contains(counted), "\(reason)")
            let page = try await client.execute(
                uri: ServeSQLTests.uri(Self.hugeResult(store), path: "/sql"), method: .get)
            #expect(page.status == .ok)
            #expect(ServedStore.text(page).contains("the byte limit"))
        }
    }

    @Test(arguments: HarnessStore.available)
    func aValueOverTheValueLimitIsCutWithAMarker(store: HarnessStore) async throws {
        let harness = try await ServedStore.harness(store)
        try await ServedStore.serve(try ServeSQLTests.settings(harness)) { client in
            let document = try #require(
                try ServedStore.json(
                    try await client.execute(uri: ServeSQLTests.uri(Self.oneHugeValue(store)), method: .get)) as? JSON)
            let rows = try #require(document["rows"] as? [[Any]])
            let value = try #require(rows.first?.first as? String)
            #expect(value.hasSuffix("…[cut: 1000001 bytes]"), "\(value.suffix(40))")
            #expect(value.utf8.count < ReadOnlySQLRequest.defaultValueLimit + 64)
            #expect(value.hasPrefix("axxx"))
            #expect(rows.first?.last as? Int == 7)
            #expect(document["truncated"] as? Bool == true)
            #expect((document["truncated_reason"] as? String)?.contains("1 value was longer than 256 KiB") == true)
        }
    }

    @Test(arguments: HarnessStore.available)
    func aSmallResultIsWholeWithoutAReason(store: HarnessStore) async throws {
        let harness = try await ServedStore.harness(store)
        try await ServedStore.serve(try ServeSQLTests.settings(harness)) { client in
            let response = try await client.execute(
                uri: ServeSQLTests.uri("SELECT 'abc' AS t, 2 AS n"), method: .get)
            #expect(
                ServedStore.text(response)
                    == "{\"columns\":[\"t\",\"n\"],\"rows\":[[\"abc\",2]],\"truncated\":false,\"row_limit\":1000}\n")
        }
    }

    @Test func aBlobOverTheValueLimitIsCutAsHexWithAMarker() async throws {
        let harness = try await ServedStore.harness(.sqlite)
        try await ServedStore.serve(try ServeSQLTests.settings(harness)) { client in
            let document = try #require(
                try ServedStore.json(
                    try await client.execute(uri: ServeSQLTests.uri("SELECT zeroblob(1000000) AS b"), method: .get))
                    as? JSON)
            let value = try #require((document["rows"] as? [[Any]])?.first?.first as? String)
            #expect(value == String(repeating: "0", count: 256 << 10) + "…[cut: 1000000 bytes]")
        }
    }

    @Test(arguments: HarnessStore.available)
    func theTimeLimitCountsFromTheRequestNotTheStatement(store: HarnessStore) async throws {
        let harness = try await ServedStore.harness(store)
        let browser = try StoreBrowser(config: try harness.config())
        let request = ReadOnlySQLRequest(
            statement: "SELECT 1 AS n", parameters: [:], timeLimit: .milliseconds(50), rowLimit: 10)
        try await Task.sleep(for: .milliseconds(100))
        do {
            let result = try await browser.runReadOnly(request)
            Issue.record("a request past its deadline answered \(result.rows)")
        } catch {
            #expect(error.kind == .timeLimit, "\(error.message)")
        }
    }
}

import FeedKit
import FeedMCP
import FeedTestSupport
import Foundation
import Testing

/// `feedwork mcp`'s `query_sql` runs under the same byte and value bounds as serve's `/api/sql`.
@Suite struct MCPQuerySQLBoundsTests {
    @Test(arguments: HarnessStore.available)
    func aValueOverTheValueLimitIsCutAndTheAnswerSaysWhy(_ store: HarnessStore) async throws {
        let (server, harness) = try await MCPServerTests.server(store)
        let statement =
            store == .sqlite
            ? "SELECT 'a' || replace(hex(zeroblob(500000)), '0', 'x') AS v"
            : "SELECT 'a' || repeat('x', 1000000) AS v"
        let (text, _) = try await MCPServerTests.call(
            server, "query_sql", "{\"sql\":\(JSONValue.string(statement).jsonText)}")
        #expect(text.contains("…[cut: 1000001 bytes]"), "\(text.suffix(300))")
        #expect(text.contains("\"truncated\":true,\"truncated_reason\":\"1 value was longer than 256 KiB"))
        withExtendedLifetime(harness) {}
    }
}

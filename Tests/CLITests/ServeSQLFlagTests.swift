import FeedTestSupport
import Foundation
import Testing

/// `feedwork serve`'s SQL flags, end to end: beyond loopback the SQL routes answer 403 naming
/// `--allow-sql` until it is given, `--sql-row-limit` cuts a result, and limits out of range are
/// refused before the server starts.
@Suite("feedwork serve --allow-sql")
struct ServeSQLFlagTests {
    static let token = "a-token-of-thirty-two-characters"
    let directory: URL

    init() async throws {
        directory = try await ServeProcess.itemsStore("serve-sql")
    }

    /// `/api/sql?sql=SELECT id FROM item ORDER BY id` from a server started with `arguments`.
    private func ask(_ arguments: [String]) async throws -> (status: Int, body: String) {
        let serve = try FeedworkProcess.startCollecting(
            ["serve", "--host", "0.0.0.0", "--port", "0"] + arguments, in: directory,
            environment: ["FEEDWORK_SERVE_TOKEN": Self.token])
        defer { serve.stop(SIGTERM) }
        let port = try await ServeProcess.port(of: serve)
        return try await HTTPGet.get(
            "http://127.0.0.1:\(port)/api/sql?sql=SELECT%20id%20FROM%20item%20ORDER%20BY%20id",
            headers: ["Authorization: Bearer \(Self.token)"], seconds: 60)
    }

    @Test func anExposedServerRefusesSQLUntilAllowSQL() async throws {
        let refused = try await ask([])
        #expect(refused.status == 403)
        #expect(refused.body.contains("--allow-sql"))
        let allowed = try await ask(["--allow-sql", "--sql-row-limit", "1"])
        #expect(allowed.status == 200, "\(allowed.body)")
        #expect(
            allowed.body.contains(
                #""rows":[[1]],"truncated":true,"truncated_reason":"the statement returned more than 1 rows (the row limit)","row_limit":1"#
            ), "\(allowed.body)")
    }

    @Test(arguments: [["--sql-time-limit", "0"], ["--sql-row-limit", "0"], ["--sql-time-limit", "nan"]])
    func limitsOutOfRangeAreRefused(_ arguments: [String]) async throws {
        let serve = try await FeedworkProcess.run(["serve", "--port", "0"] + arguments, in: directory)
        #expect(serve.status != 0)
        #expect(serve.stderr.contains(arguments[0]), "\(serve.stderr)")
    }
}

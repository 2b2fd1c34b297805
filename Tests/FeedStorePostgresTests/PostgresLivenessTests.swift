import FeedStore
import FeedTestSupport
import Foundation
import Testing

@testable import FeedStorePostgres

/// Both ends of a store's connection drop it when the other goes silent, instead of waiting on
/// the system's two hours: libpq's keepalives and user timeout on the client, and the session's
/// own on the server (``PostgresLiveness``).
@Suite("PostgreSQL: silent peers")
struct PostgresLivenessTests {
    @Test func aURLGetsEveryLivenessParameterItDoesNotGive() {
        #expect(
            PostgresLiveness.url("postgres://u@h/feeds")
                == "postgres://u@h/feeds?keepalives=1&keepalives_idle=10&keepalives_interval=5&keepalives_count=3&tcp_user_timeout=30000&connect_timeout=10"
        )
        #expect(
            PostgresLiveness.url("postgres://u@h/feeds?sslmode=disable&keepalives_idle=30&connect_timeout=2")
                == "postgres://u@h/feeds?sslmode=disable&keepalives_idle=30&connect_timeout=2&keepalives=1&keepalives_interval=5&keepalives_count=3&tcp_user_timeout=30000"
        )
    }

    @Test func theServerSessionMirrorsTheURLsValues() throws {
        guard let url = PostgresTestServer.url else { return PostgresTestServer.reportAbsence() }
        for (given, idle) in [(url, "10"), (url + (url.contains("?") ? "&" : "?") + "keepalives_idle=30", "30")] {
            let connection = try PostgresConnection(url: given)
            let rows = try connection.execute(
                "SELECT current_setting('tcp_keepalives_idle'), current_setting('tcp_keepalives_interval'), current_setting('tcp_keepalives_count'), current_setting('tcp_user_timeout')"
            )
            #expect((0..<4).map { rows[0, $0] } == [idle, "5", "3", "30000"], "\(given)")
        }
    }

    @Test func theClientSocketProbesAfterTenQuietSecondsNotTwoHours() throws {
        guard let url = PostgresTestServer.url else { return PostgresTestServer.reportAbsence() }
        let connection = try PostgresConnection(url: url)
        let port = try #require(connection.execute("SELECT inet_client_port()")[0, 0])
        // `ss` shows the socket's keepalive timer, `timer:(keepalive,9.972ms,0)` here, where
        // the system's default reads `timer:(keepalive,119min,0)`.
        let sockets = try Self.run("/usr/bin/ss", ["-tnoH", "state", "established", "( sport = :\(port) )"])
        let timer = try #require(sockets.firstMatch(of: /timer:\(keepalive,([^,]+),/), "\(sockets)")
        #expect(!timer.output.1.contains("min"), "the first probe is due in \(timer.output.1): \(sockets)")
    }

    static func run(_ path: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        try process.spawn()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }
}

import FeedEngine
import FeedKit
import FeedTestSupport
import Foundation
import Logging
import Synchronization
import Testing

/// Fetches its API with an OAuth2 token, which the API echoes back, then puts the token and
/// the client secret (`secret`, a `${VAR}` value) in a note and a log line, and in the error it
/// throws when `fail` is set: text that reaches the pass's boundary unredacted.
private struct TellingAdapter: FeedAdapter {
    struct Options: Decodable, Sendable {
        var token: String
        var api: String
        var secret: String
        var fail: Bool?
    }

    struct Told: Error, CustomStringConvertible {
        var description: String
    }

    static let description = AdapterDescription(
        name: "telling", summary: "Tells its token and secret.", options: [], entities: [])

    let options: Options
    init(options: Options, feed: FeedSetup) { self.options = options }

    func run(_ pass: FeedPass) async throws {
        let credentials = OAuth2Credentials(
            grant: .clientCredentials, tokenURL: options.token, clientID: "feedwork-client",
            clientSecret: options.secret)
        let response = try await OAuth2Session(credentials, pass: pass).fetch(
            FetchRequest(url: options.api, cacheable: false))
        let told = "token \(String(decoding: response.body, as: UTF8.self)), client secret \(options.secret)"
        pass.note(told)
        pass.log(told, level: .warning)
        if options.fail == true { throw Told(description: told) }
    }
}

/// Every line a logger is given, as the log shows it.
private final class LogLines: Sendable {
    let lines = Mutex<[String]>([])

    var text: String { lines.withLock { $0.joined(separator: "\n") } }

    /// A handler that keeps its lines here, at every level.
    func handler() -> some LogHandler { Keeper(lines: self) }

    private struct Keeper: LogHandler {
        let lines: LogLines
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            let line = "\(event.level) \(metadata.merging(event.metadata ?? [:]) { $1 }) \(event.message)"
            lines.lines.withLock { $0.append(line) }
        }
    }
}

@Suite("Redaction at the pass's boundary")
struct PassRedactionTests {
    /// A note, a log line and an error holding a `${VAR}` value and an OAuth2 token leave two
    /// passes (one committed, one failed) with both as `***`: in `_runs`, the report as
    /// `feedwork run --json` prints it, and the log.
    @Test(arguments: HarnessStore.available)
    func noSecretReachesTheRunsTheReportOrTheLog(driver: HarnessStore) async throws {
        let server = try LoopbackOAuth2Server { request in
            .text(String(request.header("authorization")?.dropFirst("Bearer ".count) ?? ""))
        }
        defer { server.stop() }
        let options = #"token: "\#(server.tokenURL)", api: "\#(server.url("/me"))", secret: "${CLIENT_SECRET}""#
        let harness = try FeedHarness(
            registry: AdapterRegistry([TellingAdapter.self]),
            yaml: """
                feeds:
                  - { name: noting, adapter: telling, \(options) }
                  - { name: failing, adapter: telling, \(options), fail: true }
                """,
            environment: ["CLIENT_SECRET": server.settings.clientSecret], store: driver)
        let log = LogLines()
        var engine = try await Engine.open(try harness.config())
        engine.logger = Logger(label: "feedwork") { _ in log.handler() }
        let report = await engine.run()
        try await engine.close()

        let told = "token ***, client secret ***"
        let noting = try #require(report.feeds.first { $0.feed == "noting" })
        let failing = try #require(report.feeds.first { $0.feed == "failing" })
        #expect(noting.status == .ok, "\(noting.error ?? "")")
        #expect(noting.notes == [told])
        #expect(failing.status == .failed)
        #expect(failing.error == told)
        let json = String(decoding: try JSONEncoder().encode(report), as: UTF8.self)
        let runs = try await harness.rows("SELECT feed, error, notes FROM _runs ORDER BY id")
        #expect(runs.count == 2)
        let recorded = runs.map { row in "\(row["error"] ?? .null) \(row["notes"] ?? .null)" }.joined(separator: "\n")
        #expect(recorded.contains(told))
        #expect(log.text.contains(told))
        #expect(log.text.contains("rolled back: \(told)"))
        let secrets = [server.settings.clientSecret] + server.everyToken
        #expect(!server.everyToken.isEmpty, "the adapters got a token to tell")
        for secret in secrets {
            #expect(!json.contains(secret), "the report holds \(secret)")
            #expect(!recorded.contains(secret), "_runs holds \(secret)")
            #expect(!log.text.contains(secret), "the log holds \(secret)")
        }
    }
}

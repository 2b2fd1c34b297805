import FeedEngine
import FeedFixtures
import FeedKit
import FeedTestSupport
import Foundation
import FruitFeed
import Synchronization
import Testing

/// Every way a server can misbehave, against a real loopback server: the faulty feed reports a
/// clear error naming its URL (or succeeds after retries), the healthy feed of the same pass
/// commits, and the faulty feed's rows stay exactly as the previous pass left them.
@Suite("Reliability: network faults", .serialized)
struct NetworkFaultTests {
    /// A fault the server plays on `/fault`, and what the feed's error must say.
    struct Fault: Sendable, CustomTestStringConvertible {
        var name: String
        /// The reply to the `n`th request (from 1) to `/fault`.
        var reply: @Sendable (Int) -> LoopbackReply
        /// Words the feed's error must contain, besides the URL.
        var expected: [String]

        var testDescription: String { name }
    }

    static let goodBody =
        #"{"fruit":[{"type":"apple","price":149,"weight":120},{"type":"pear","price":99,"weight":150}]}"#
    static let newBody =
        #"{"fruit":[{"type":"apple","price":155,"weight":120},{"type":"kiwi","price":20,"weight":75}]}"#

    /// 2 000 000 zero bytes, gzip-compressed to about 2 KB.
    static let gzipBomb =
        Data(
            base64Encoded:
                """
                H4sIAAAAAAACA+3BAQEAAACCIP+vbkhAAQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\
                AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\
                AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\
                AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\
                AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\
                AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\
                AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\
                AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\
                AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\
                AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\
                AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\
                AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\
                AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\
                AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\
                AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\
                AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\
                AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\
                AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\
                AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\
                AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\
                AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\
                AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\
                AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\
                AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\
                AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\
                AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\
                AAAAAAAAAAAAAAAAbwZBHVpCgIQeAA==
                """
        ) ?? Data()

    static let faults: [Fault] = [
        Fault(
            name: "a burst of 500, 502 and 503", reply: { n in .status([500, 502, 503][min(n, 3) - 1]) },
            expected: ["HTTP 503", "after 3 attempts"]),
        Fault(
            name: "429 with Retry-After, every time", reply: { _ in .status(429).header("Retry-After", "1") },
            expected: ["HTTP 429", "after 3 attempts"]),
        Fault(
            name: "a connection reset mid-body", reply: { _ in .json(newBody).reset(afterBodyBytes: 20) },
            expected: ["connection failed"]),
        Fault(
            name: "truncated JSON", reply: { _ in .json(String(newBody.prefix(40))) },
            expected: ["at $: invalid JSON"]),
        Fault(
            name: "a Content-Length longer than the body",
            reply: { _ in .json(newBody).shortBody(declaredLength: newBody.utf8.count + 100) },
            expected: ["connection failed"]),
        Fault(
            name: "a stalled body", reply: { _ in .json(newBody).stalled(for: .seconds(3)) },
            expected: ["timed out"]),
        Fault(
            name: "an HTML error page with status 200",
            reply: { _ in
                .data(
                    Data("<html><body>Service unavailable</body></html>".utf8),
                    headers: [("Content-Type", "text/html")])
            },
            expected: ["at $: invalid JSON", "line 1, column 1"]),
        Fault(
            name: "invalid UTF-8 in a string",
            reply: { _ in
                .data(
                    Data(#"{"fruit":[{"type":"app"#.utf8) + Data([0xC3, 0x28])
                        + Data(#"le","price":1,"weight":2}]}"#.utf8),
                    headers: [("Content-Type", "application/json")])
            },
            expected: ["invalid UTF-8"]),
        Fault(
            name: "a body over the size limit",
            reply: { _ in .json(#"{"fruit":[], "pad": ""# + String(repeating: "x", count: 200_000) + #""}"#) },
            expected: ["larger than the limit of 65536 bytes"]),
        Fault(
            name: "a gzip bomb", reply: { _ in .data(gzipBomb, headers: [("Content-Encoding", "gzip")]) },
            expected: ["larger than the limit of 65536 bytes"]),
        Fault(
            name: "a redirect loop", reply: { _ in .redirect(to: "/fault") },
            expected: ["too many redirects"]),
        Fault(name: "a 404", reply: { _ in .status(404) }, expected: ["HTTP 404"]),
        Fault(name: "an empty body", reply: { _ in .json("") }, expected: ["the body is empty"]),
        Fault(
            name: "a JSON body of the wrong shape", reply: { _ in .json(#"{"error":"quota exceeded"}"#) },
            expected: ["at $.fruit", "expected a list of fruit"]),
    ]

    @Test(arguments: faults)
    func faultFailsOnlyItsFeedAndKeepsItsRowsByteForByte(_ fault: Fault) async throws {
        let scenario = try FaultScenario(fault: fault.reply)
        defer { scenario.server.stop() }
        try await scenario.goodPass()
        let before = try await scenario.dump()
        #expect(before.count == 2)

        let report = try await scenario.faultPass()
        let faulty = try #require(report.feeds.first { $0.feed == "faulty" })
        let healthy = try #require(report.feeds.first { $0.feed == "healthy" })
        #expect(faulty.status == .failed)
        let error = try #require(faulty.error)
        #expect(error.contains("feed 'faulty'") || error.contains(scenario.server.url("/fault")), "\(error)")
        #expect(error.contains(scenario.server.url("/fault")), "the error names the URL: \(error)")
        for words in fault.expected { #expect(error.contains(words), "'\(words)' in: \(error)") }
        #expect(healthy.status == .ok)
        #expect(healthy.counts.inserted == 1, "the healthy feed committed its new row")
        await #expect(try scenario.dump() == before, "the faulty feed's rows are byte-for-byte as before")
    }

    @Test func aBurstOfServerErrorsWithinTheRetriesSucceeds() async throws {
        let scenario = try FaultScenario { n in n <= 2 ? .status([502, 503][n - 1]) : .json(Self.newBody) }
        defer { scenario.server.stop() }
        try await scenario.goodPass()
        let report = try await scenario.faultPass()
        let faulty = try #require(report.feeds.first { $0.feed == "faulty" })
        #expect(faulty.status == .ok)
        #expect(faulty.attempts == 3)
        await #expect(try scenario.types() == ["apple", "kiwi", "pear"])
        #expect(try await scenario.price(of: "apple") == 155)
    }

    @Test func a429WithRetryAfterIsHonouredAndThenSucceeds() async throws {
        let scenario = try FaultScenario { n in n == 1 ? .status(429).header("Retry-After", "1") : .json(Self.newBody) }
        defer { scenario.server.stop() }
        try await scenario.goodPass()
        let started = ContinuousClock.now
        let report = try await scenario.faultPass(extra: "retry_after_cap: 300ms")
        let faulty = try #require(report.feeds.first { $0.feed == "faulty" })
        #expect(faulty.status == .ok)
        #expect(faulty.attempts == 2)
        #expect(ContinuousClock.now - started >= .milliseconds(300), "waited the capped Retry-After")
        #expect(try await scenario.price(of: "apple") == 155)
    }

    @Test func aFaultWithACachedResponseFallsBackToItAndKeepsTheRows() async throws {
        let scenario = try FaultScenario(cachedFault: true) { _ in .status(503) }
        defer { scenario.server.stop() }
        try await scenario.goodPass()
        let before = try await scenario.dump(withLastSeen: false)
        let report = try await scenario.faultPass()
        let faulty = try #require(report.feeds.first { $0.feed == "faulty" })
        #expect(faulty.status == .stale)
        #expect(faulty.staleURLs == [scenario.server.url("/fault")])
        await #expect(try scenario.dump(withLastSeen: false) == before)
    }
}

/// Two fruit feeds in one store: `healthy` reads a file, `faulty` a loopback server whose
/// `/good` path always answers and whose `/fault` path plays a fault.
final class FaultScenario: Sendable {
    let server: LoopbackServer
    let harness: FeedHarness
    /// When `true`, the good pass already reads `/fault` (so its response is cached).
    let cachedFault: Bool
    /// A client of its own, so that stalled transfers do not hold the shared client's threads
    /// that other tests of the process use.
    let fetcher = StandardFetcher(client: CurlHTTPClient(workers: 2))

    init(cachedFault: Bool = false, fault: @escaping @Sendable (Int) -> LoopbackReply) throws {
        let counter = Mutex(0)
        let isFaulting = Mutex(false)
        server = try LoopbackServer { request in
            if request.path == "/good" { return .json(NetworkFaultTests.goodBody) }
            guard isFaulting.withLock({ $0 }) else { return .json(NetworkFaultTests.goodBody) }
            let n = counter.withLock { count in
                count += 1
                return count
            }
            return fault(n)
        }
        self.cachedFault = cachedFault
        startFaulting = { isFaulting.withLock { $0 = true } }
        harness = try FeedHarness(
            registry: AdapterRegistry([FruitAdapter.self]), yaml: "feeds: []",
            files: ["healthy.json": Data(#"{"fruit":[{"type":"apple","price":1,"weight":2}]}"#.utf8)])
    }

    private let startFaulting: @Sendable () -> Void

    func config(path: String, extra: String = "") -> String {
        """
        feeds:
          - name: healthy
            adapter: fruit
            url: healthy.json
          - name: faulty
            adapter: fruit
            url: \(server.url(path))
            timeout: 500ms
            connect_timeout: 500ms
            backoff: 10ms
            retries: 2
            retry_after_cap: 20ms
            max_response_size: 64KB
            max_redirects: 3
        \(extra.isEmpty ? "" : "    " + extra)
        """
    }

    /// The first pass: both feeds succeed.
    func goodPass() async throws {
        try harness.setConfig(config(path: cachedFault ? "/fault" : "/good"))
        let report = try await harness.run(fetcher: fetcher)
        #expect(report.feeds.map(\.status) == [.ok, .ok], "\(report.feeds.map { $0.error ?? "" })")
    }

    /// The second pass: the healthy feed gains a fruit, the faulty one reads `/fault`.
    func faultPass(extra: String = "") async throws -> RunReport {
        startFaulting()
        try harness.write(
            "healthy.json",
            Data(#"{"fruit":[{"type":"apple","price":1,"weight":2},{"type":"fig","price":3,"weight":4}]}"#.utf8))
        var yaml = config(path: "/fault")
        if !extra.isEmpty {
            yaml = yaml.replacingOccurrences(of: "    retry_after_cap: 20ms", with: "    \(extra)")
        }
        try harness.setConfig(yaml)
        return try await harness.run(fetcher: fetcher)
    }

    /// Every column (the engine's `_` columns included) of the faulty feed's rows, in key order,
    /// each value with its SQLite type.
    func dump(withLastSeen: Bool = true) async throws -> [String] {
        let rows = try await harness.rows("SELECT * FROM fruit WHERE _feed = 'faulty' ORDER BY _key")
        return rows.map { row in
            row.keys.sorted().filter { withLastSeen || ($0 != "_last_seen") }
                .map { column in "\(column)=\(row[column].map { String(reflecting: $0) } ?? "absent")" }
                .joined(separator: "|")
        }
    }

    func types() async throws -> [String] {
        try await harness.rows("SELECT type FROM fruit WHERE _feed = 'faulty' ORDER BY type").compactMap {
            if case .text(let type)? = $0["type"] { type } else { nil }
        }
    }

    func price(of type: String) async throws -> Int64? {
        let row = try await harness.rows("SELECT price FROM fruit WHERE _feed = 'faulty' AND type = ?", [.text(type)])
            .first
        if case .integer(let price)? = row?["price"] { return price }
        return nil
    }
}

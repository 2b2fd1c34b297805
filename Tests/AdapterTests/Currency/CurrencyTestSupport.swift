import CurrencyFeed
import FeedEngine
import FeedFixtures
import FeedKit
import FeedTestSupport
import Foundation

/// Harnesses for currency feeds over files or a loopback server.
enum CurrencyHarness {
    static let registry = AdapterRegistry([CurrencyAdapter.self])

    /// A `rates` feed reading `list.json` and `live.json` from its folder.
    static func files(list: Data, live: Data, extra: String = "", driver: HarnessStore = .sqlite) throws -> FeedHarness
    {
        try FeedHarness(
            registry: registry,
            yaml: """
                feeds:
                  - name: fx
                    adapter: currency
                    max_reject_ratio: 1  # these suites reject most records on purpose
                    currencies: { url: list.json }
                    rates: { url: live.json\(extra) }
                """, files: ["list.json": list, "live.json": live], store: driver)
    }

    /// A feed whose two endpoints are on `server`, with the key from the environment.
    static func server(
        _ server: LoopbackServer, key: String = "sekret-123", rates: String = "", driver: HarnessStore = .sqlite
    ) throws -> FeedHarness {
        try FeedHarness(
            registry: registry,
            yaml: """
                feeds:
                  - name: fx
                    adapter: currency
                    access_key: ${CURRENCYLAYER_KEY}
                    retries: 0
                    currencies: { url: "\(server.url("/api/list"))" }
                    rates: { url: "\(server.url("/api/live"))"\(rates) }
                """, environment: ["CURRENCYLAYER_KEY": key], store: driver)
    }

    /// A loopback server answering `/api/list` and `/api/live` with the given bodies.
    static func api(list: Data, live: @escaping @Sendable (LoopbackRequest) -> Data) throws -> LoopbackServer {
        try LoopbackServer { request in
            request.path.hasSuffix("/list")
                ? .data(list, headers: [("Content-Type", "application/json")]) : .data(live(request))
        }
    }

    static func fixture(_ name: String) throws -> Data { try TestFixtures.data("currency/\(name)") }
}

extension FeedHarness {
    /// `SELECT ... FROM exchange_rate` rows as `TARGET rate as_of` lines, sorted.
    func rateLines() async throws -> [String] {
        try await rows("SELECT target, rate, as_of FROM exchange_rate ORDER BY target, as_of").map { row in
            [row["target"], row["rate"], row["as_of"]].map { value -> String in
                if case .text(let text)? = value { text } else { "?" }
            }.joined(separator: " ")
        }
    }

    /// Every table's rows as text, to compare a store before and after a failed pass.
    func snapshot(_ tables: [String] = ["currency", "exchange_rate", "_rejects", "_http_cache", "_http_cache_body"])
        async throws -> [String]
    {
        var lines: [String] = []
        for table in tables {
            lines += try await rows("SELECT * FROM \"\(table)\"").map { row in
                "\(table): "
                    + row.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
                    .joined(separator: ",")
            }
        }
        return lines.sorted()
    }
}

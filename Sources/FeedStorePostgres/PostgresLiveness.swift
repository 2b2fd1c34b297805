import Foundation

/// How both ends of a connection notice that the other went silent: a machine unplugged, a
/// partition that drops packets, a server that froze.
///
/// Left to the system, Linux sends the first keepalive after two hours, and a write nobody
/// acknowledges is retried for about fifteen minutes; until then libpq waits on a dead socket,
/// and the server keeps the dead client's session, its transaction and its advisory locks (the
/// feeds it leases), so the other workers cannot run those feeds. Feedwork sets on every
/// connection, and asks the server to set on its session, the same settings:
///
/// | setting | default | |
/// |---|---|---|
/// | `keepalives_idle` | 10 s | quiet time before the first probe |
/// | `keepalives_interval` | 5 s | between probes |
/// | `keepalives_count` | 3 | probes unanswered before the connection is dropped |
/// | `tcp_user_timeout` | 30,000 ms | how long sent data may go unacknowledged |
/// | `connect_timeout` | 10 s | how long a connection may take to open (client only) |
///
/// So a peer that stops answering is dropped within 25 s of silence, or 30 s after data it did
/// not acknowledge. Each is libpq's parameter of that name: a store URL that gives one
/// (`postgres://host/feeds?keepalives_idle=30`) keeps its value, on both ends.
///
/// Keepalives are answered by the kernels, though: a worker that is paused (SIGSTOP, a frozen
/// virtual machine) or behind a proxy that stopped forwarding keeps its sessions, and its
/// feeds, for as long as it likes. So a session that holds a feed is ended by the server once
/// it was silent for ``PostgresStore/silence`` (half the worker's lease, 30 s by default):
/// a lease's session with `idle_session_timeout`, a pass's transaction with
/// `idle_in_transaction_session_timeout`; a live process shows both alive every third of that
/// (``Heartbeat``).
package enum PostgresLiveness {
    /// How long a session holding a feed may be silent when nothing says otherwise: half the
    /// default lease.
    package static let defaultSilence = Duration.seconds(30)

    /// How often a session holding a feed shows it is alive, for `silence`.
    static func beat(for silence: Duration) -> Duration { silence / 3 }

    /// `silence` in whole milliseconds, as the server's timeouts take it (at least 1).
    static func milliseconds(_ silence: Duration) -> Int { max(1, Int(silence / .milliseconds(1))) }

    /// The parameters and their defaults, in the order they are added to a URL.
    static let defaults: [(name: String, value: Int)] = [
        ("keepalives", 1), ("keepalives_idle", 10), ("keepalives_interval", 5), ("keepalives_count", 3),
        ("tcp_user_timeout", 30_000), ("connect_timeout", 10),
    ]

    /// The server's settings that mirror libpq's, by libpq's name.
    private static let serverSettings = [
        "keepalives_idle": "tcp_keepalives_idle", "keepalives_interval": "tcp_keepalives_interval",
        "keepalives_count": "tcp_keepalives_count", "tcp_user_timeout": "tcp_user_timeout",
    ]

    /// `url` with each parameter of ``defaults`` it does not give added to its query.
    static func url(_ url: String) -> String {
        let given = Set(parameters(of: url).keys)
        let missing = defaults.filter { !given.contains($0.name) }.map { "\($0.name)=\($0.value)" }
        guard !missing.isEmpty else { return url }
        let (base, fragment) = split(url, at: "#")
        return base + (base.contains("?") ? "&" : "?") + missing.joined(separator: "&")
            + (fragment.map { "#" + $0 } ?? "")
    }

    /// The statement that sets the server's side of the connection to the values `url` gives
    /// (after ``url(_:)``); `tcp_user_timeout` only on servers that have it (PostgreSQL 12 and
    /// later). On a connection over a Unix socket the server ignores them.
    static func sessionStatement(for url: String) -> String {
        let values = parameters(of: url)
        let settings = defaults.compactMap { parameter -> String? in
            guard let setting = serverSettings[parameter.name],
                let value = values[parameter.name].flatMap({ Int($0) }) ?? Optional(parameter.value)
            else { return nil }
            let call = "set_config('\(setting)', '\(value)', false)"
            return setting == "tcp_user_timeout"
                ? "CASE WHEN current_setting('server_version_num')::int >= 120000 THEN \(call) END" : call
        }
        return "SELECT " + settings.joined(separator: ", ")
    }

    /// The query parameters of `url`, by name (the last of a name given twice).
    private static func parameters(of url: String) -> [String: String] {
        let (base, _) = split(url, at: "#")
        guard let query = base.split(separator: "?", maxSplits: 1).dropFirst().first else { return [:] }
        var parameters: [String: String] = [:]
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(parts[0]).removingPercentEncoding ?? String(parts[0])
            parameters[name] = parts.count > 1 ? (String(parts[1]).removingPercentEncoding ?? String(parts[1])) : ""
        }
        return parameters
    }

    private static func split(_ text: String, at separator: Character) -> (String, String?) {
        guard let index = text.firstIndex(of: separator) else { return (text, nil) }
        return (String(text[..<index]), String(text[text.index(after: index)...]))
    }
}

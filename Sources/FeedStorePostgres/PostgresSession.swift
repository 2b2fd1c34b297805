import FeedStore
import Foundation
import Logging

/// A connection that several threads take turns on: each call holds it for its statements,
/// so a transaction begun in one call is never interleaved with another thread's statements.
///
/// When the server goes away (a restart, a failover), the connection is made again on the next
/// call, with `prepare` run on it (the session's `search_path` and time zone): a read that failed
/// because the connection broke runs once more on the new one, and a transaction whose `BEGIN`
/// found it broken begins on the new one; a transaction that broke later fails as it is, rolled
/// back by the server. Attempts while the server is down are spaced out (0.25 s, doubling up to
/// 5 s); the calls in between fail at once with the last error.
final class PostgresSession: @unchecked Sendable {
    // `connection`, `failure` and `retryAt` are only used while `lock` is held.
    private let lock = NSLock()
    private var connection: PostgresConnection
    private let url: String
    private let prepare: @Sendable (PostgresConnection) throws(PostgresError) -> Void
    private var failure: PostgresError?
    private var retryAt = ContinuousClock.now
    private var backoff = Duration.milliseconds(250)
    private let logger = Logger(label: "feedwork.postgres")

    init(
        _ connection: PostgresConnection, url: String,
        prepare: @escaping @Sendable (PostgresConnection) throws(PostgresError) -> Void = { _ throws(PostgresError) in }
    ) {
        self.connection = connection
        self.url = url
        self.prepare = prepare
    }

    package var location: String { connection.location }

    /// Runs `body` with the connection, alone: a read, which runs once more on a new connection
    /// when the old one broke under it.
    func with<T>(_ body: (PostgresConnection) throws -> T) throws -> T {
        lock.lock()
        defer { lock.unlock() }
        try reconnectIfBroken()
        do {
            return try body(connection)
        } catch  where connection.isBroken {
            try reconnectIfBroken()
            return try body(connection)
        }
    }

    /// Runs `body` in a transaction: committed when it returns, rolled back when it throws.
    func transaction<T>(_ body: (PostgresConnection) throws -> T) throws -> T {
        lock.lock()
        defer { lock.unlock() }
        try reconnectIfBroken()
        do {
            try connection.execute("BEGIN")
        } catch  where connection.isBroken {
            try reconnectIfBroken()
            try connection.execute("BEGIN")
        }
        do {
            let result = try body(connection)
            try connection.execute("COMMIT")
            return result
        } catch {
            _ = try? connection.execute("ROLLBACK")
            throw error
        }
    }

    /// Makes the connection again when it broke, unless the last attempt was too recent.
    private func reconnectIfBroken() throws(PostgresError) {
        guard connection.isBroken else { return }
        if let failure, ContinuousClock.now < retryAt { throw failure }
        do {
            let fresh = try PostgresConnection(url: url)
            try prepare(fresh)
            connection = fresh
            logger.warning("reconnected to \(connection.location)")
            failure = nil
            backoff = .milliseconds(250)
        } catch {
            if failure == nil {
                logger.warning("lost the connection to \(connection.location); reconnecting: \(error.message)")
            }
            failure = error
            retryAt = ContinuousClock.now + backoff
            backoff = min(backoff * 2, .seconds(5))
            throw error
        }
    }
}

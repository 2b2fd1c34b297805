import Foundation

/// A connection that several threads take turns on: each call holds it for its statements,
/// so a transaction begun in one call is never interleaved with another thread's statements.
final class PostgresSession: @unchecked Sendable {
    // `connection` is only used while `lock` is held.
    private let lock = NSLock()
    private let connection: PostgresConnection

    init(_ connection: PostgresConnection) { self.connection = connection }

    var location: String { connection.location }

    /// Runs `body` with the connection, alone.
    func with<T>(_ body: (PostgresConnection) throws -> T) throws -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(connection)
    }

    /// Runs `body` in a transaction: committed when it returns, rolled back when it throws.
    func transaction<T>(_ body: (PostgresConnection) throws -> T) throws -> T {
        try with { connection in
            try connection.execute("BEGIN")
            do {
                let result = try body(connection)
                try connection.execute("COMMIT")
                return result
            } catch {
                _ = try? connection.execute("ROLLBACK")
                throw error
            }
        }
    }
}

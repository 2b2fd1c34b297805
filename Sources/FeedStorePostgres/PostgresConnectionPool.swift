import FeedStore
import Foundation

/// The idle connections of one store, kept for its next pass or lease.
///
/// A new connection costs the server a process and cold caches: measured on a 2-core machine,
/// about 3 ms to connect, and about 17 ms of the server's CPU per worker pass when each pass
/// opened two (its transaction's and its lease's). A connection goes back here only when its
/// user ended cleanly (its transaction committed or rolled back, its lease's locks released),
/// and is checked with its user's first statement when taken again: one that died meanwhile (a
/// server restart) is dropped and another taken, or a new one made.
///
/// At most ``capacity`` connections wait here; more are closed as they come back.
final class PostgresConnectionPool: @unchecked Sendable {
    // `idle`, `opened` and `opening` are only used while `lock` is held, which is signalled as
    // each connection opened in advance comes in (or fails); a connection taken out is used by
    // one thread at a time, as every ``PostgresConnection`` is.
    private let lock = NSCondition()
    private var idle: [PostgresConnection] = []
    private var opened = 0
    /// Connections being opened in advance (``openInAdvance(_:on:)``), not in ``idle`` yet.
    private var opening = 0
    private let url: String
    let capacity: Int

    init(url: String, capacity: Int = 16) {
        self.url = url
        self.capacity = capacity
    }

    /// An idle connection on which `prepare` succeeded, or a new one prepared with it.
    ///
    /// - Throws: ``PostgresError`` when a new connection fails, or `prepare` fails on it.
    func take(
        prepare: (PostgresConnection) throws(PostgresError) -> Void
    ) throws(PostgresError) -> PostgresConnection {
        while let connection = popIdle() {
            // A failure here is the connection's (it died while idle), or one a new connection
            // would meet too, and then it is thrown below.
            if (try? prepare(connection)) != nil { return connection }
        }
        let connection = try PostgresConnection(url: url)
        lock.lock()
        opened += 1
        lock.unlock()
        try prepare(connection)
        return connection
    }

    /// Keeps `connection` for the next user, unless it broke or the pool is full (it is closed
    /// then, when the last reference goes).
    func giveBack(_ connection: PostgresConnection) {
        guard !connection.isBroken else { return }
        lock.lock()
        defer { lock.unlock() }
        if idle.count < capacity { idle.append(connection) }
    }

    /// How many connections wait to be taken.
    var idleCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return idle.count
    }

    /// How many connections the pool has made so far.
    var openedCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return opened
    }

    /// Opens `count` connections on `thread` and keeps them here, while the caller goes on
    /// (``waitForOpening()`` waits for them): a store opened for running feeds opens its read
    /// connection and its first pass's two (its lease's and its transaction's) while it creates
    /// or migrates its tables. Measured on a 2-core machine: a new store's tables take 20 ms of
    /// the server's time, a connection 4 to 6 ms, which the first pass waited for one after the
    /// other. A connection that cannot be opened is left out: the next ``take(prepare:)`` opens
    /// one and reports the error.
    func openInAdvance(_ count: Int, on thread: StoreThread) {
        lock.lock()
        opening += count
        lock.unlock()
        let url = url
        thread.submit { [self] in
            for _ in 0..<count {
                let connection = try? PostgresConnection(url: url)
                lock.lock()
                if let connection {
                    opened += 1
                    idle.append(connection)
                }
                opening -= 1
                lock.broadcast()
                lock.unlock()
            }
        }
    }

    /// Waits until the connections asked for with ``openInAdvance(_:on:)`` are open (or could
    /// not be).
    func waitForOpening() {
        lock.lock()
        defer { lock.unlock() }
        while opening > 0 { lock.wait() }
    }

    private func popIdle() -> PostgresConnection? {
        lock.lock()
        defer { lock.unlock() }
        return idle.popLast()
    }
}

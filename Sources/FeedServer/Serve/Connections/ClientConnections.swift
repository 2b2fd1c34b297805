import NIOCore
import Synchronization

/// The connections `feedwork serve` has open, by client (the peer's IP address), so that one
/// client cannot hold every connection: past ``perClient`` connections of one client, a new one
/// takes the place of that client's oldest connection still waiting for a request, and is
/// refused (closed) when all of them are busy with one.
///
/// Each connection's ``RequestDeadlineHandler`` tells the registry when it opens, when it starts
/// or finishes waiting for a request, and when it closes. The registry is shared by the server's
/// event loops; it closes a connection through its `Channel`, which any thread may do.
final class ClientConnections: Sendable {
    /// The most connections one client keeps open at once.
    let perClient: Int
    private let clients = Mutex<[String: [Connection]]>([:])

    private struct Connection: Sendable {
        let id: ObjectIdentifier
        let channel: any Channel
        var waiting: Bool
    }

    init(perClient: Int) { self.perClient = perClient }

    /// Records the connection `id` of `client`, waiting for its first request, and closes the
    /// connection it replaces: that client's oldest waiting one when it is at ``perClient``, or
    /// this new one when every one of them is busy.
    func opened(_ id: ObjectIdentifier, client: String, channel: any Channel) {
        let closing: (any Channel)? = clients.withLock { clients in
            var connections = clients[client, default: []]
            var closing: (any Channel)?
            if connections.count >= perClient {
                guard let oldest = connections.firstIndex(where: \.waiting) else { return channel }
                closing = connections.remove(at: oldest).channel
            }
            connections.append(Connection(id: id, channel: channel, waiting: true))
            clients[client] = connections
            return closing
        }
        closing?.close(promise: nil)
    }

    /// Marks the connection `id` of `client` as waiting for a request (`true`), or busy with one.
    func setWaiting(_ id: ObjectIdentifier, client: String, _ waiting: Bool) {
        clients.withLock { clients in
            guard let index = clients[client]?.firstIndex(where: { $0.id == id }) else { return }
            clients[client]?[index].waiting = waiting
        }
    }

    /// Forgets the connection `id` of `client`, which closed.
    func closed(_ id: ObjectIdentifier, client: String) {
        clients.withLock { clients in
            clients[client]?.removeAll { $0.id == id }
            if clients[client]?.isEmpty == true { clients[client] = nil }
        }
    }

    /// How many connections `client` has open (for tests).
    func count(of client: String) -> Int { clients.withLock { $0[client]?.count ?? 0 } }
}

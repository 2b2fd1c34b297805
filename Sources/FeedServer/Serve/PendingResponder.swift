import Hummingbird
import Synchronization

/// The responder of a server that listens before it can answer: each request waits until
/// ``serve(with:)`` gives the router's responder, and is then answered by it as if it had been
/// there from the start.
///
/// `feedwork serve` listens while it reads the config and opens the store (see
/// ``ServeApplication/run(at:preparing:ready:)``); a request that comes meanwhile waits in the
/// server, not in the listen queue.
final class PendingResponder: HTTPResponder, Sendable {
    typealias Context = BasicRequestContext
    typealias Ready = RouterResponder<BasicRequestContext>

    private enum State {
        case waiting([CheckedContinuation<Ready, Never>])
        case ready(Ready)
    }

    private let state = Mutex(State.waiting([]))

    /// How many requests wait for ``serve(with:)``.
    var waitingRequests: Int {
        state.withLock { state in
            if case .waiting(let waiting) = state { return waiting.count }
            return 0
        }
    }

    /// Answers the requests that wait, and every later one, with `responder`.
    func serve(with responder: Ready) {
        let waiting: [CheckedContinuation<Ready, Never>] = state.withLock { state in
            guard case .waiting(let waiting) = state else { return [] }
            state = .ready(responder)
            return waiting
        }
        for request in waiting { request.resume(returning: responder) }
    }

    func respond(to request: Request, context: Context) async throws -> Response {
        try await responder().respond(to: request, context: context)
    }

    private func responder() async -> Ready {
        let ready: Ready? = state.withLock { state in
            if case .ready(let responder) = state { return responder }
            return nil
        }
        if let ready { return ready }
        return await withCheckedContinuation { request in
            let ready: Ready? = state.withLock { state in
                switch state {
                case .ready(let responder):
                    return responder
                case .waiting(var waiting):
                    waiting.append(request)
                    state = .waiting(waiting)
                    return nil
                }
            }
            if let ready { request.resume(returning: ready) }
        }
    }
}

import FeedEngine
import FeedMCP
import Hummingbird

/// `POST /mcp`: `feedwork mcp`'s server over MCP's streamable HTTP transport, one JSON-RPC
/// message per request, its answer as `application/json` (a notification: 202 and no body).
/// No event stream: `GET /mcp` is a 405. Behind the server's token like every route; beyond
/// loopback only with `--mcp`; a request from a web page of another origin is refused, so a
/// site a browser visits cannot reach a loopback server through DNS rebinding.
struct MCPRoute: Sendable {
    /// The largest message accepted.
    static let maximumBodyBytes = 4 << 20

    let settings: ServeSettings

    func add(to router: Router<BasicRequestContext>) {
        router.post("/mcp") { request, _ in
            guard let server = settings.mcp else {
                throw ServeError.notFound("MCP is off: this server was started without a config (--store alone)")
            }
            if let refusal = settings.mcpRefusal { throw refusal }
            if let origin = request.headers[.origin], !Self.isLoopbackOrigin(origin) {
                throw ServeError(.forbidden, "Origin \(origin): /mcp answers no web page but the server's own")
            }
            let body = try await request.body.collect(upTo: Self.maximumBodyBytes)
            guard let answer = await server.answer(String(buffer: body)) else { return Response(status: .accepted) }
            return jsonResponse(answer)
        }
        router.get("/mcp") { _, _ -> Response in
            var error = ServeError(.methodNotAllowed, "/mcp takes one JSON-RPC message by POST; it has no event stream")
            error.headers[.allow] = "POST"
            throw error
        }
    }

    /// Whether `origin` (`http://127.0.0.1:8080`) names this machine by a loopback name.
    static func isLoopbackOrigin(_ origin: String) -> Bool {
        guard let schemeEnd = origin.range(of: "://") else { return false }
        var host = origin[schemeEnd.upperBound...]
        if host.hasPrefix("[") {
            host = host.prefix { $0 != "]" }.dropFirst()
        } else {
            host = host.prefix { $0 != ":" && $0 != "/" }
        }
        return ["127.0.0.1", "localhost", "::1"].contains(host.lowercased())
    }
}

extension ServeSettings {
    /// Why `/mcp` is off on this server, as its answer, or `nil` when it is on.
    var mcpRefusal: ServeError? {
        guard !address.isLoopback, !mcpWhenExposed else { return nil }
        return ServeError(
            .forbidden,
            "MCP is off: this server listens on \(address.host), beyond loopback; start it with --mcp to let whoever"
                + " holds its token use /mcp")
    }
}

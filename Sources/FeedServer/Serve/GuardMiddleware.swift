import Foundation
import Hummingbird

/// What every request passes before a route sees it: only `GET` and `HEAD` (and `POST` to
/// `/mcp`, whose messages only read), a bounded URI,
/// and the token when the server has one (`Authorization: Bearer TOKEN`, the cookie a page
/// visited with `?token=TOKEN` set, or `?token=TOKEN` itself; the scheme in any case).
struct GuardMiddleware<Context: RequestContext>: RouterMiddleware {
    /// The longest request target accepted (414 above it).
    static var maximumURILength: Int { 8 * 1024 }
    static var cookieName: String { "feedwork_token" }

    let token: String?

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        guard
            request.method == .get || request.method == .head || (request.method == .post && request.uri.path == "/mcp")
        else {
            throw ServeError.readOnly
        }
        guard request.uri.description.utf8.count <= Self.maximumURILength else {
            throw ServeError(.uriTooLong, "the request target is longer than \(Self.maximumURILength) bytes")
        }
        guard let token else { return try await next(request, context) }
        let query = try request.decodedQuery()["token"]
        let presented =
            bearer(request) ?? request.cookies[Self.cookieName]?.value ?? query
        guard let presented, Self.same(presented, token) else {
            throw ServeError(.unauthorized, "this server needs its token: Authorization: Bearer TOKEN, or ?token=TOKEN")
        }
        var response = try await next(request, context)
        if query != nil {
            response.headers[.setCookie] =
                "\(Self.cookieName)=\(token); Path=/; HttpOnly; SameSite=Strict"
        }
        return response
    }

    /// The token of an `Authorization: Bearer TOKEN` header; the scheme's case does not matter
    /// (`bearer`, `BEARER`), nor the number of spaces after it.
    private func bearer(_ request: Request) -> String? {
        guard let header = request.headers[.authorization] else { return nil }
        let scheme = header.prefix { $0 != " " }
        guard scheme.lowercased() == "bearer" else { return nil }
        let token = header.dropFirst(scheme.count).drop { $0 == " " }
        return token.isEmpty ? nil : String(token)
    }

    /// Compares in time that depends on the lengths only, not on where the texts differ.
    static func same(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8)
        let y = Array(b.utf8)
        guard x.count == y.count else { return false }
        var difference: UInt8 = 0
        for index in x.indices { difference |= x[index] ^ y[index] }
        return difference == 0
    }
}

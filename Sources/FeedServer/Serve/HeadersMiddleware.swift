import Hummingbird

/// The headers every answer carries, errors included: `nosniff`, no framing by another site
/// (`X-Frame-Options` and the policy's `frame-ancestors`), a Content-Security-Policy that
/// allows scripts from the server only, and `Cache-Control: no-store` unless the route chose
/// its own (the stylesheet and script), since pages and API answers show the store's data.
///
/// It is the outermost middleware, so that it sees the errors of the others as answers.
struct HeadersMiddleware<Context: RequestContext>: RouterMiddleware {
    static var contentSecurityPolicy: String {
        "default-src 'self'; img-src * data:; style-src 'self'; script-src 'self'; frame-ancestors 'none'"
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        var response: Response
        do {
            response = try await next(request, context)
        } catch let error as any HTTPResponseError {
            response = try error.response(from: request, context: context)
        }
        response.headers[.xContentTypeOptions] = "nosniff"
        if let frameOptions = HTTPFields.Element.Name("X-Frame-Options") { response.headers[frameOptions] = "DENY" }
        if response.headers[.contentSecurityPolicy] == nil {
            response.headers[.contentSecurityPolicy] = Self.contentSecurityPolicy
        }
        if response.headers[.cacheControl] == nil { response.headers[.cacheControl] = "no-store" }
        return response
    }
}

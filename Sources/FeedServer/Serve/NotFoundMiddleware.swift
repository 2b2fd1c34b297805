import Hummingbird

/// A request no route serves becomes a ``ServeError``, so it is answered like every other 404:
/// a page with a way back to the feeds, or `{"error": ...}` under `/api` (Hummingbird's own is
/// an empty body).
struct NotFoundMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        do {
            return try await next(request, context)
        } catch let error as HTTPError where error.status == .notFound {
            let path = request.uri.path
            if path == "/api" || path.hasPrefix("/api/") {
                throw ServeError.notFound("no route \(path); the routes are described at /api/openapi.json")
            }
            throw ServeError.notFound("there is no page at \(path)")
        }
    }
}

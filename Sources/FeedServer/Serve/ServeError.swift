import FeedEngine
import FeedKit
import Foundation
import Hummingbird

/// Why `feedwork serve` refused a request: the status and a message for a person, sent as
/// `{"error": message}` (or a small HTML page for a page's request).
public struct ServeError: Error, Sendable, HTTPResponseError, CustomStringConvertible {
    public var status: HTTPResponse.Status
    public var message: String
    /// Headers the answer carries besides its content type (a 405's `Allow`).
    public var headers: HTTPFields = [:]

    public init(_ status: HTTPResponse.Status, _ message: String) {
        self.status = status
        self.message = message
    }

    /// A method other than `GET` and `HEAD`: a 405 naming the methods allowed (`Allow`, which
    /// RFC 9110 requires of a 405).
    static var readOnly: ServeError {
        var error = ServeError(.methodNotAllowed, "the server is read-only: only GET and HEAD")
        error.headers[.allow] = "GET, HEAD"
        return error
    }

    public var description: String { "\(status.code) \(message)" }

    static func badRequest(_ message: String) -> ServeError { ServeError(.badRequest, message) }
    static func notFound(_ message: String) -> ServeError { ServeError(.notFound, message) }
    static func noFeed(_ feed: String) -> ServeError { .notFound("no feed '\(feed)' has run on this store") }
    static func noRecord(entity: String, feed: String, key: String) -> ServeError {
        .notFound("no record '\(key)' of feed '\(feed)' in '\(entity)'")
    }
    static func noMedia(_ hash: String) -> ServeError { .notFound("no mirrored image '\(hash)' in this store") }
    static var noPricing: ServeError { .notFound("this server prices no baskets") }

    /// A store error as an answer: a request that does not fit the store is the client's
    /// (400, or 404 for an unknown entity or feed); a store that cannot be read is the server's.
    static func from(_ error: any Error) -> ServeError {
        switch error {
        case let error as ServeError: return error
        case let error as ExportError where error.kind == .unknownName: return ServeError(.notFound, error.message)
        case let error as ExportError where error.isUsageError: return ServeError(.badRequest, error.message)
        default: return ServeError(.internalServerError, "\(error)")
        }
    }

    /// Runs `body`, a read of the store (which runs on the store's own threads), with its error
    /// as the answer (``from(_:)``).
    static func reading<T>(_ body: () async throws -> T) async throws(ServeError) -> T {
        do {
            return try await body()
        } catch {
            throw ServeError.from(error)
        }
    }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        if !(request.uri.path == "/api" || request.uri.path.hasPrefix("/api/")), let page = Pages.errorPage(self) {
            var headers = self.headers
            headers[.contentType] = "text/html; charset=utf-8"
            return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: page)))
        }
        let body = "{\"error\":" + JSONValue.string(message).jsonText + "}\n"
        var headers = self.headers
        headers[.contentType] = "application/json; charset=utf-8"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: body)))
    }
}

import FeedEngine
import FeedKit
import Foundation
import Synchronization

/// Performs requests through another fetcher (the ``StandardFetcher``) and records every
/// response, secrets replaced, for a ``FixtureRecording``.
///
/// The URL, the header values and the body of each response pass through the context's
/// ``Redactor``, so a key sent in a query string or echoed back by the API is stored as `***`.
/// Headers that change on every request or carry sessions (``RecordedResponse/volatileHeaders``)
/// are left out. A request that fails with a status (after its retries) is recorded with that
/// status and an empty body, and a missing file as a 404, so the replay fails the same way.
public final class RecordingFetcher: Fetching {
    private let upstream: any Fetching
    private let recorded = Mutex<[(response: RecordedResponse, redactor: Redactor)]>([])

    public init(upstream: any Fetching = StandardFetcher()) {
        self.upstream = upstream
    }

    /// The responses recorded so far, in the order they arrived.
    ///
    /// Redacted again as they are read: a credential the feed learned from a response after it
    /// was recorded (an OAuth2 token endpoint's tokens, see ``Redactor/learn(_:)``) is `***` in
    /// the recording too, and a replay sends that placeholder as its token.
    public var responses: [RecordedResponse] {
        recorded.withLock { $0 }.map { entry in
            var response = entry.response
            response.url = entry.redactor.redact(response.url)
            response.headers = response.headers.mapValues(entry.redactor.redact)
            response.body = Self.redacted(response.body, with: entry.redactor)
            return response
        }
    }

    public func fetch(_ request: FetchRequest, context: FetchContext) async throws -> FetchResponse {
        let redactor = context.redactor
        let url = redactor.redact(request.url)
        let method = request.method.uppercased()
        do {
            // A fixture needs every body, even one the adapter would not read again.
            var request = request
            request.omitsUnchangedBody = false
            let response = try await upstream.fetch(request, context: context)
            var headers: [String: String] = [:]
            for (name, value) in response.headers where !RecordedResponse.volatileHeaders.contains(name.lowercased()) {
                headers[name.lowercased()] = redactor.redact(value)
            }
            let entry = RecordedResponse(
                method: method, url: url, status: response.status, headers: headers,
                body: Self.redacted(response.body, with: redactor))
            recorded.withLock { $0.append((entry, redactor)) }
            return response
        } catch let error as FetchError {
            let status: Int? =
                switch error.kind {
                case .status(let code): code
                case .fileNotFound: 404
                default: nil
                }
            if let status {
                recorded.withLock {
                    $0.append((RecordedResponse(method: method, url: url, status: status, body: Data()), redactor))
                }
            }
            throw error
        }
    }

    /// `body` with every secret replaced; a body that is not UTF-8 text is kept only when it
    /// holds no secret's bytes.
    static func redacted(_ body: Data, with redactor: Redactor) -> Data {
        guard !redactor.secrets.isEmpty else { return body }
        if let text = String(data: body, encoding: .utf8) {
            return Data(redactor.redact(text).utf8)
        }
        let leaks = redactor.secrets.contains { body.range(of: Data($0.utf8)) != nil }
        return leaks ? Data("(binary body withheld: it contains a secret)".utf8) : body
    }
}

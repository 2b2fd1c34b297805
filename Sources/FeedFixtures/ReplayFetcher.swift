import FeedEngine
import FeedKit
import Foundation
import Synchronization

/// Serves a feed's requests from a ``FixtureRecording``: no network, no file system.
///
/// A request is looked up by its method and its URL redacted with the context's ``Redactor``,
/// exactly as the recording stored it, whether the URL is http(s) or a path: a feed reading
/// local files replays like one reading an API. A request made more often than it was recorded
/// gets its recordings in order, then the last one again.
///
/// A request with no recording throws a ``FixtureError`` naming the method and the redacted URL,
/// so a changed adapter or config shows which request it now makes. Recorded statuses behave as the ``StandardFetcher`` would
/// treat them: a 404 or 401 is returned to requests that accept it, any other status outside 2xx is
/// thrown (a missing file for path URLs).
public final class ReplayFetcher: Fetching {
    private let responses: [Key: [RecordedResponse]]
    private let served = Mutex<[Key: Int]>([:])

    private struct Key: Hashable {
        var method: String
        var url: String
    }

    public init(recording: FixtureRecording) {
        var responses: [Key: [RecordedResponse]] = [:]
        for response in recording.responses {
            responses[Key(method: response.method.uppercased(), url: response.url), default: []].append(response)
        }
        self.responses = responses
    }

    public func fetch(_ request: FetchRequest, context: FetchContext) async throws -> FetchResponse {
        let url = context.redactor.redact(request.url)
        let key = Key(method: request.method.uppercased(), url: url)
        guard let candidates = responses[key], !candidates.isEmpty else {
            throw FixtureError("no recorded response for \(key.method) \(url)")
        }
        let index = served.withLock { counts in
            let index = counts[key, default: 0]
            counts[key] = index + 1
            return min(index, candidates.count - 1)
        }
        let recorded = candidates[index]
        let origin: FetchResponse.Origin = request.isRemote ? .network : .file
        switch recorded.status {
        case 200..<300:
            return FetchResponse(
                url: url, status: recorded.status, headers: recorded.headers, body: recorded.body, origin: origin,
                attempts: request.isRemote ? 1 : 0, bytesReceived: request.isRemote ? recorded.body.count : 0)
        case 404 where request.acceptsNotFound:
            return FetchResponse(url: url, status: 404, headers: recorded.headers, body: recorded.body, origin: origin)
        case 401 where request.acceptsUnauthorized:
            return FetchResponse(url: url, status: 401, headers: recorded.headers, body: recorded.body, origin: origin)
        case let status where request.acceptedStatuses.contains(status):
            return FetchResponse(
                url: url, status: status, headers: recorded.headers, body: recorded.body, origin: origin)
        case 404 where !request.isRemote:
            throw FetchError(.fileNotFound, url: url)
        default:
            throw FetchError(.status(recorded.status), url: url, attempts: 1)
        }
    }
}

import FeedKit
import Foundation

/// The feed's credentials for its mirrored images, on its own origin only.
extension JSONAdapter {
    /// `auth:` as the feed's data requests carry it (a `bearer`, `basic` or `api_key` header,
    /// an `api_key` in the query, the OAuth2 access token) when `url` has the origin of the
    /// feed's `url`; none for another origin. A query key the image URL already names is not
    /// added again.
    public func mediaCredentials(for url: String) -> MediaCredentials {
        guard let auth = requests.auth, let origin = Self.origin(of: url), origin == Self.origin(of: feedURL) else {
            return .none
        }
        switch auth {
        case .bearer(let token): return MediaCredentials(headers: [HTTPHeader("Authorization", "Bearer \(token)")])
        case .apiKey(let header?, _, let value): return MediaCredentials(headers: [HTTPHeader(header, value)])
        case .apiKey(nil, let name?, let value):
            guard !RenderedRequests.query(of: url, contains: name) else { return .none }
            return MediaCredentials(query: [(name, value)])
        case .apiKey(nil, nil, _): return .none
        case .basic(let username, let password):
            return MediaCredentials(headers: [
                HTTPHeader("Authorization", "Basic \(RequestPlan.basicCredentials(username, password))")
            ])
        case .oauth2(let credentials): return MediaCredentials(oauth2: credentials)
        }
    }

    /// `scheme://host:port` of an http(s) URL, lowercased, the port made explicit; `nil` for any other.
    static func origin(of url: String) -> String? {
        guard let parts = URLComponents(string: url), let scheme = parts.scheme?.lowercased(),
            ["http", "https"].contains(scheme), let host = parts.host?.lowercased(), !host.isEmpty
        else { return nil }
        return "\(scheme)://\(host):\(parts.port ?? (scheme == "https" ? 443 : 80))"
    }
}

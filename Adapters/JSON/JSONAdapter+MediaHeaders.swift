import FeedKit
import Foundation

/// The feed's credentials for its mirrored images, on its own origin only.
extension JSONAdapter {
    /// `auth:`'s header (`bearer`, `basic`, `api_key` with `header`) when `url` has the origin of
    /// the feed's `url`; none for another origin, for a key sent in the query, and for OAuth2,
    /// whose token belongs to the pass that fetched the records.
    public func mediaHeaders(for url: String) -> [HTTPHeader] {
        guard let auth = requests.auth, let origin = Self.origin(of: url), origin == Self.origin(of: feedURL) else {
            return []
        }
        switch auth {
        case .bearer(let token): return [HTTPHeader("Authorization", "Bearer \(token)")]
        case .apiKey(let header?, _, let value): return [HTTPHeader(header, value)]
        case .basic(let username, let password):
            return [HTTPHeader("Authorization", "Basic \(RequestPlan.basicCredentials(username, password))")]
        case .apiKey(nil, _, _), .oauth2: return []
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

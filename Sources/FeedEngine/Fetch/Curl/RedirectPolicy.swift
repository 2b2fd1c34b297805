import Foundation

/// Which redirects a request follows (`follow_redirects:` in feeds.yaml).
///
/// Feedwork follows redirects itself, one hop at a time, so that it decides what each hop
/// sends. A hop to another host (another host name or port; `http` to `https` on the same
/// host is the same host) never carries the request's credentials: the `Authorization`,
/// `Proxy-Authorization` and `Cookie` headers, and every header whose value holds a secret
/// (a `${VAR}` or an `auth:` value), are left out, and a redirect whose URL holds a secret is
/// not followed at all. Query parameters are never carried over: the next hop's URL is the
/// `Location` the server sent.
public enum RedirectPolicy: String, Sendable, Hashable, CaseIterable, Decodable {
    /// Redirects to the same host only; one to another host fails the request.
    case sameHost = "same_host"
    /// Every redirect, without the credentials when it leaves the host (the default: many
    /// APIs send downloads to a CDN).
    case any
    /// None: a redirect fails the request.
    case never

    /// Whether `next` is on the host of `current`: the same host name (ignoring case) and
    /// port, or the same host name from `http` on port 80 to `https` on port 443.
    static func isSameHost(_ current: String, _ next: String) -> Bool {
        guard let from = URLComponents(string: current), let to = URLComponents(string: next),
            let fromHost = from.host?.lowercased(), let toHost = to.host?.lowercased(), fromHost == toHost
        else { return false }
        let (fromScheme, toScheme) = (from.scheme?.lowercased() ?? "", to.scheme?.lowercased() ?? "")
        let (fromPort, toPort) = (port(of: from, scheme: fromScheme), port(of: to, scheme: toScheme))
        if fromScheme == toScheme { return fromPort == toPort }
        return fromScheme == "http" && toScheme == "https" && fromPort == 80 && toPort == 443
    }

    private static func port(of url: URLComponents, scheme: String) -> Int? {
        url.port ?? (scheme == "https" ? 443 : scheme == "http" ? 80 : nil)
    }
}

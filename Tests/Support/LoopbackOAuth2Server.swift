import Foundation
import Synchronization

/// A real OAuth2 token endpoint and the API it guards, on 127.0.0.1, for tests of feeds that
/// authenticate with `oauth2_client_credentials` or `oauth2_refresh_token`.
///
/// `POST /token` hands out access tokens (`client_credentials` with the client's id and secret,
/// in the body or as HTTP Basic; `refresh_token` with a refresh token it issued, each usable
/// once when ``Settings/rotates``). Every other path is the API: a request whose bearer token
/// it issued and that has not expired is answered by `api`, any other with 401.
public final class LoopbackOAuth2Server: Sendable {
    public struct Settings: Sendable {
        public var clientID = "feedwork-client"
        public var clientSecret = "client-secret-3f9a81"
        /// The refresh token a `refresh_token` grant starts from (the one feeds.yaml holds).
        public var refreshToken = "refresh-seed-c0ffee42"
        /// Seconds an access token lives (`expires_in`).
        public var lifetime = 3600
        /// Seconds past its `expires_in` that the API still accepts a token, as servers allow
        /// for clocks that differ; a request arriving then counts in ``LoopbackOAuth2Server/lateUses``.
        public var grace: TimeInterval = 0
        /// Whether each refresh token is refused after its first use, a new one coming with
        /// each access token.
        public var rotates = true

        public init() {}
    }

    private struct State {
        var issued = 0
        var accessTokens: [String: Date] = [:]
        /// Refresh tokens the server accepts, and how often each was presented.
        var liveRefreshTokens: Set<String> = []
        var refreshUses: [String: Int] = [:]
        var tokenRequests: [LoopbackRequest] = []
        var refused: [String] = []
        var lateUses = 0
        var everyToken: [String] = []
    }

    /// The state, apart so that the server's handler can hold it without holding this object.
    private final class Ledger: Sendable {
        let state = Mutex(State())
    }

    public let settings: Settings
    private let ledger: Ledger
    private let server: LoopbackServer

    /// A server with `settings`, answering authorized API requests with `api`.
    public init(
        _ settings: Settings = Settings(), api: @escaping @Sendable (LoopbackRequest) -> LoopbackReply
    ) throws(LoopbackServerError) {
        self.settings = settings
        let ledger = Ledger()
        self.ledger = ledger
        ledger.state.withLock { $0.liveRefreshTokens = [settings.refreshToken] }
        server = try LoopbackServer { request in
            if request.path == "/token" { return Self.token(request, settings: settings, ledger: ledger) }
            let bearer = request.header("authorization").flatMap { header in
                header.hasPrefix("Bearer ") ? String(header.dropFirst(7)) : nil
            }
            let valid = ledger.state.withLock { state in
                guard let expiry = bearer.flatMap({ state.accessTokens[$0] }) else { return false }
                let now = Date()
                if expiry <= now { state.lateUses += 1 }
                return expiry.addingTimeInterval(settings.grace) > now
            }
            guard valid else {
                return .json(#"{"error":"invalid_token"}"#, status: 401, headers: [("WWW-Authenticate", "Bearer")])
            }
            return api(request)
        }
    }

    public func stop() { server.stop() }

    /// `http://127.0.0.1:PORT/token`.
    public var tokenURL: String { server.url("/token") }

    /// The absolute URL of an API path.
    public func url(_ path: String) -> String { server.url(path) }

    /// Every request received, token requests included, oldest first.
    public var requests: [LoopbackRequest] { server.requests }

    /// The API requests received (not the token requests), oldest first.
    public var apiRequests: [LoopbackRequest] { server.requests.filter { $0.path != "/token" } }

    /// The token requests received, oldest first.
    public var tokenRequests: [LoopbackRequest] { ledger.state.withLock { $0.tokenRequests } }

    /// How many times each refresh token was presented.
    public var refreshUses: [String: Int] { ledger.state.withLock { $0.refreshUses } }

    /// The token requests refused, with why.
    public var refused: [String] { ledger.state.withLock { $0.refused } }

    /// The API requests that arrived after their token's `expires_in`, within ``Settings/grace``.
    public var lateUses: Int { ledger.state.withLock { $0.lateUses } }

    /// Every access and refresh token handed out, for secret sweeps.
    public var everyToken: [String] { ledger.state.withLock { $0.everyToken } }

    /// Expires every access token handed out so far, as a server does at the end of their
    /// lifetime: the next API request with one is answered 401.
    public func expireAccessTokens() {
        ledger.state.withLock { state in
            for token in state.accessTokens.keys { state.accessTokens[token] = .distantPast }
        }
    }

    private static func token(_ request: LoopbackRequest, settings: Settings, ledger: Ledger) -> LoopbackReply {
        var form: [String: String] = [:]
        for item in LoopbackRequest(method: "GET", target: "/?" + request.bodyText).queryItems {
            form[item.name] = item.value
        }
        var clientID = form["client_id"]
        var clientSecret = form["client_secret"]
        if let basic = request.header("authorization"), basic.hasPrefix("Basic "),
            let decoded = Data(base64Encoded: String(basic.dropFirst(6))).map({ String(decoding: $0, as: UTF8.self) }),
            let colon = decoded.firstIndex(of: ":")
        {
            clientID = String(decoded[..<colon]).removingPercentEncoding
            clientSecret = String(decoded[decoded.index(after: colon)...]).removingPercentEncoding
        }
        return ledger.state.withLock { state in
            state.tokenRequests.append(request)
            func refuse(_ why: String) -> LoopbackReply {
                state.refused.append(why)
                return .json(#"{"error":"invalid_grant","error_description":"\#(why)"}"#, status: 400)
            }
            var newRefresh: String?
            switch form["grant_type"] {
            case "client_credentials":
                guard clientID == settings.clientID, clientSecret == settings.clientSecret else {
                    return refuse("bad client credentials")
                }
            case "refresh_token":
                guard let presented = form["refresh_token"] else { return refuse("no refresh_token") }
                state.refreshUses[presented, default: 0] += 1
                guard state.liveRefreshTokens.contains(presented) else { return refuse("refresh token not valid") }
                if settings.rotates {
                    state.liveRefreshTokens.remove(presented)
                    state.issued += 1
                    let rotated = "refresh-\(state.issued)-\(UUID().uuidString.prefix(8))"
                    state.liveRefreshTokens.insert(rotated)
                    state.everyToken.append(rotated)
                    newRefresh = rotated
                }
            default:
                return refuse("unsupported grant_type")
            }
            state.issued += 1
            let access = "access-\(state.issued)-\(UUID().uuidString.prefix(12))"
            state.accessTokens[access] = Date().addingTimeInterval(TimeInterval(settings.lifetime))
            state.everyToken.append(access)
            let refresh = newRefresh.map { #","refresh_token":"\#($0)""# } ?? ""
            return .json(
                #"{"access_token":"\#(access)","token_type":"Bearer","expires_in":\#(settings.lifetime)\#(refresh)}"#)
        }
    }
}

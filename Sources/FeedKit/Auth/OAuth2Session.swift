import Foundation
import Synchronization

/// One pass's use of an ``OAuth2Client``: sends requests with its access token, renews the
/// token once when the API answers 401 and sends the request again, and keeps the token in the
/// feed's `_state`, sealed (AES-GCM) with a key derived from the configured secrets,
/// before it sends anything with it: the engine commits `auth.*` state in a write of its own at
/// once, so a rotated refresh token survives even a process killed mid-pass (on SQLite, a
/// renewal after the pass's transaction took the store goes with the pass, or with the record of
/// its failure).
///
/// The engine's media mirror uses one too, after the pass committed, for the feed's images on
/// its own origin (``MediaCredentials``): it keeps a renewed token in `_state` at once.
public final class OAuth2Session: Sendable {
    /// The process's client for these credentials, shared with every other session that has them.
    public let client: OAuth2Client
    private let pass: any OAuth2Carrier
    private let sealer: SealedText
    /// The token this pass's `_state` holds (as read, then as written), once looked at.
    private let kept = Mutex<OAuth2Token??>(nil)

    /// The `_state` key of the sealed token (read even by `--full-refresh` passes, since a
    /// rotated refresh token is the only one the endpoint still accepts).
    public static let stateKey = FeedPass.credentialStatePrefix + "oauth2"

    /// A session for one pass: its requests go through `pass`, and its token lives in `pass`'s `_state`.
    public convenience init(_ credentials: OAuth2Credentials, pass: FeedPass) {
        self.init(credentials, carrier: pass)
    }

    /// A session whose requests, token requests and `_state` go through `carrier`.
    package init(_ credentials: OAuth2Credentials, carrier pass: any OAuth2Carrier) {
        client = OAuth2Client.shared(for: credentials)
        self.pass = pass
        sealer = SealedText(secrets: credentials.identity, context: Self.stateKey)
    }

    /// Sends `request` with `Authorization: Bearer <token>`; on a 401, once more with a renewed
    /// token. An `--offline` pass, whose responses all come from the cache, needs no token.
    ///
    /// - Throws: the fetch's error (a second 401 included), or ``OAuth2Error`` when the token
    ///   endpoint gives no token.
    public func fetch(_ request: FetchRequest) async throws -> FetchResponse {
        if pass.isOffline { return try await pass.fetch(request) }
        let token = try await usableToken(rejecting: nil)
        var first = Self.authorized(request, with: token)
        first.acceptsUnauthorized = true
        let response = try await pass.fetch(first)
        guard response.status == 401 else { return response }
        pass.log("\(response.url) answered 401 to the access token; renewing it and sending again", level: .info)
        let renewed = try await usableToken(rejecting: token.accessToken)
        return try await pass.fetch(Self.authorized(request, with: renewed))
    }

    private func usableToken(rejecting rejected: String?) async throws -> OAuth2Token {
        let token = try await client.token(for: pass, stored: storedToken, rejecting: rejected)
        try await keep(token)
        return token
    }

    /// The token this pass's `_state` holds, if it was sealed for these credentials.
    private func storedToken() async throws -> OAuth2Token? {
        if let kept = kept.withLock({ $0 }) { return kept }
        let token = try await pass.state(Self.stateKey).flatMap(sealer.open).flatMap(OAuth2Token.init(json:))
        kept.withLock { $0 = .some(token) }
        return token
    }

    /// Writes `token` to the pass's `_state` unless it holds it already.
    private func keep(_ token: OAuth2Token) async throws {
        let stored = try await storedToken()
        guard stored != token else { return }
        kept.withLock { $0 = .some(token) }
        try await pass.setState(Self.stateKey, sealer.seal(token.json))
    }

    private static func authorized(_ request: FetchRequest, with token: OAuth2Token) -> FetchRequest {
        var request = request
        request.headers.removeAll { $0.name.lowercased() == "authorization" }
        request.headers.append(HTTPHeader("Authorization", "Bearer \(token.accessToken)"))
        return request
    }
}

import Foundation

/// What an OAuth2 token endpoint needs to hand out access tokens (RFC 6749): the grant, where
/// to ask, and the client's credentials. Secret values come from `${VAR}` in feeds.yaml.
public struct OAuth2Credentials: Sendable, Hashable {
    /// How access tokens are obtained.
    public enum Grant: String, Sendable, Hashable {
        /// `grant_type=client_credentials`, with the client's id and secret.
        case clientCredentials = "client_credentials"
        /// `grant_type=refresh_token`, with the newest refresh token: the configured one seeds
        /// it, and one the endpoint rotates replaces it (kept in `_state`, sealed).
        case refreshToken = "refresh_token"
    }

    /// How the client authenticates to the token endpoint.
    public enum ClientAuthentication: String, Sendable, Hashable, CaseIterable {
        /// `client_id` and `client_secret` in the form body (`client_secret_post`).
        case body
        /// HTTP Basic with the id and secret (`client_secret_basic`).
        case basic
    }

    /// One further form parameter of token requests (`resource`, `tenant`...).
    public struct Parameter: Sendable, Hashable {
        /// The form field's name, such as `resource`.
        public var name: String
        /// The form field's value, sent as it is (form-encoded on the way).
        public var value: String

        /// A form parameter `name=value` added to every token request.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// Which grant the token requests use.
    public var grant: Grant
    /// The token endpoint's URL, which every token request is posted to.
    public var tokenURL: String
    /// The client's id, sent as the ``clientAuthentication`` says; `nil` when the endpoint needs none.
    public var clientID: String?
    /// The client's secret, hidden in every message (``secrets``).
    public var clientSecret: String?
    /// The refresh token that seeds a `refresh_token` grant.
    public var refreshToken: String?
    /// The `scope` form parameter of token requests, when the endpoint wants one.
    public var scope: String?
    /// The `audience` form parameter of token requests (some providers' name for the API asked for).
    public var audience: String?
    /// Whether the client's id and secret go in the form body or in HTTP Basic.
    public var clientAuthentication: ClientAuthentication
    /// Further form parameters of every token request, in order.
    public var parameters: [Parameter]

    /// Credentials for `grant` at `tokenURL`; the id and secret go in the form body unless told otherwise.
    public init(
        grant: Grant, tokenURL: String, clientID: String? = nil, clientSecret: String? = nil,
        refreshToken: String? = nil, scope: String? = nil, audience: String? = nil,
        clientAuthentication: ClientAuthentication = .body, parameters: [Parameter] = []
    ) {
        self.grant = grant
        self.tokenURL = tokenURL
        self.clientID = clientID
        self.clientSecret = clientSecret
        self.refreshToken = refreshToken
        self.scope = scope
        self.audience = audience
        self.clientAuthentication = clientAuthentication
        self.parameters = parameters
    }

    /// The values to hide in every message: the client secret, the seed refresh token and the
    /// Basic credentials made of them.
    public var secrets: [String] {
        var secrets = [clientSecret, refreshToken].compactMap { $0 }
        if let basic = basicCredentials { secrets.append(basic) }
        return secrets
    }

    /// `base64(id:secret)` for ``ClientAuthentication/basic``, each part form-encoded first.
    var basicCredentials: String? {
        guard clientAuthentication == .basic, let clientID else { return nil }
        let pair = "\(URLQuery.encode(clientID)):\(URLQuery.encode(clientSecret ?? ""))"
        return Data(pair.utf8).base64EncodedString()
    }

    /// Everything that tells these credentials from others, in one string: the key of the
    /// process's token cache, and the material of the key that seals tokens in `_state`, so
    /// that a token kept for other credentials (a changed secret or seed) is never used.
    var identity: [String] {
        [
            grant.rawValue, tokenURL, clientID ?? "", clientSecret ?? "", refreshToken ?? "", scope ?? "",
            audience ?? "", clientAuthentication.rawValue,
        ] + parameters.flatMap { [$0.name, $0.value] }
    }

    /// The form of a token request for `grant`, with the current `refreshToken` for a refresh.
    func tokenRequest(refreshToken current: String?) -> FetchRequest {
        var form: [(String, String)] = [("grant_type", grant.rawValue)]
        if grant == .refreshToken, let current { form.append(("refresh_token", current)) }
        if let scope { form.append(("scope", scope)) }
        if let audience { form.append(("audience", audience)) }
        for parameter in parameters { form.append((parameter.name, parameter.value)) }
        var headers = [
            HTTPHeader("Accept", "application/json"),
            HTTPHeader("Content-Type", "application/x-www-form-urlencoded"),
        ]
        if let basic = basicCredentials {
            headers.append(HTTPHeader("Authorization", "Basic \(basic)"))
        } else {
            if let clientID { form.append(("client_id", clientID)) }
            if let clientSecret { form.append(("client_secret", clientSecret)) }
        }
        let body = form.map { "\(URLQuery.encode($0.0))=\(URLQuery.encode($0.1))" }.joined(separator: "&")
        // Never cached: the answer is a credential, and a replayed one would be stale.
        return FetchRequest(url: tokenURL, method: "POST", headers: headers, body: Data(body.utf8), cacheable: false)
    }
}

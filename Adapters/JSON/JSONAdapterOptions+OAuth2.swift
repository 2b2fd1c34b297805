import FeedKit

extension JSONAdapter.AuthSpec {
    /// The credentials of an `oauth2_client_credentials` or `oauth2_refresh_token` block.
    static func oauth2(_ type: String, _ container: KeyedDecodingContainer<CodingKeys>) throws -> OAuth2Credentials {
        let grant: OAuth2Credentials.Grant = type == "oauth2_refresh_token" ? .refreshToken : .clientCredentials
        let tokenURL = try container.decode(String.self, forKey: .tokenURL)
        guard FetchRequest.isRemote(tokenURL) else {
            throw DecodingError.dataCorruptedError(
                forKey: .tokenURL, in: container,
                debugDescription: "token_url must be an http:// or https:// URL, not '\(tokenURL)'")
        }
        let clientID = try container.decodeIfPresent(String.self, forKey: .clientID)
        let clientSecret = try container.decodeIfPresent(String.self, forKey: .clientSecret)
        let refreshToken: String?
        switch grant {
        case .clientCredentials:
            guard clientID != nil, clientSecret != nil else {
                throw DecodingError.dataCorruptedError(
                    forKey: clientID == nil ? .clientID : .clientSecret, in: container,
                    debugDescription: "oauth2_client_credentials auth needs client_id and client_secret")
            }
            refreshToken = nil
        case .refreshToken:
            refreshToken = try container.decode(String.self, forKey: .refreshToken)
        }
        var authentication = OAuth2Credentials.ClientAuthentication.body
        if let text = try container.decodeIfPresent(String.self, forKey: .clientAuth) {
            guard let value = OAuth2Credentials.ClientAuthentication(rawValue: text) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .clientAuth, in: container,
                    debugDescription: "client_auth must be body or basic, not '\(text)'")
            }
            guard clientID != nil else {
                throw DecodingError.dataCorruptedError(
                    forKey: .clientAuth, in: container, debugDescription: "client_auth needs client_id")
            }
            authentication = value
        }
        let params = try container.decodeIfPresent(OrderedMapping<String>.self, forKey: .params)
        return OAuth2Credentials(
            grant: grant, tokenURL: tokenURL, clientID: clientID, clientSecret: clientSecret,
            refreshToken: refreshToken, scope: try container.decodeIfPresent(String.self, forKey: .scope),
            audience: try container.decodeIfPresent(String.self, forKey: .audience),
            clientAuthentication: authentication,
            parameters: params?.entries.map { OAuth2Credentials.Parameter(name: $0.key, value: $0.value) } ?? [])
    }
}

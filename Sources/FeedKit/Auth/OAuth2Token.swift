import Foundation

/// An access token, when it expires, and the refresh token to renew it with.
struct OAuth2Token: Sendable, Hashable, Codable {
    var accessToken: String
    var issuedAt: Date
    /// `nil` when the endpoint gave no `expires_in`: the token is used until a 401.
    var expiresAt: Date?
    /// The newest refresh token (a rotating endpoint sends a new one with each token).
    var refreshToken: String?

    enum CodingKeys: String, CodingKey {
        case accessToken = "access_token"
        case issuedAt = "issued_at"
        case expiresAt = "expires_at"
        case refreshToken = "refresh_token"
    }

    /// The most time before expiry at which a token is renewed rather than sent: a tenth of
    /// its lifetime, at most a minute, so that no request goes out with a token about to lapse.
    static let longestMargin: TimeInterval = 60

    /// Whether the token can still be sent at `now`.
    func isUsable(at now: Date) -> Bool {
        guard let expiresAt else { return true }
        let lifetime = expiresAt.timeIntervalSince(issuedAt)
        let margin = min(Self.longestMargin, max(0, lifetime) / 10)
        return now < expiresAt.addingTimeInterval(-margin)
    }

    /// The token of a token endpoint's answer (RFC 6749 section 5.1), issued at `now`; a
    /// refresh token the answer lacks stays `keeping`.
    ///
    /// - Throws: ``OAuth2Error`` naming the members found (never their values) when the body
    ///   is not JSON or has no `access_token`.
    init(response body: Data, url: String, now: Date, keeping refreshToken: String?) throws(OAuth2Error) {
        guard case .object(let object)? = try? JSONParser.parse(body) else {
            throw OAuth2Error("the token endpoint \(url) answered with something other than a JSON object")
        }
        guard let access = object["access_token"]?.stringValue, !access.isEmpty else {
            let members = object.keys.joined(separator: ", ")
            throw OAuth2Error(
                "the token endpoint \(url) answered without an access_token (members: \(members.isEmpty ? "none" : members))"
            )
        }
        accessToken = access
        issuedAt = now
        let lifetime = object["expires_in"].flatMap { $0.doubleValue ?? $0.stringValue.flatMap(Double.init) }
        expiresAt = lifetime.map { now.addingTimeInterval($0) }
        self.refreshToken = object["refresh_token"]?.stringValue ?? refreshToken
    }

    /// The token as JSON, for sealing into `_state`.
    var json: String {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        encoder.outputFormatting = .sortedKeys
        return (try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    /// The token `json` holds, or `nil`.
    init?(json: String) {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        guard let token = try? decoder.decode(Self.self, from: Data(json.utf8)) else { return nil }
        self = token
    }
}

/// A token endpoint that could not be used: its answer, or a request refused after renewal.
public struct OAuth2Error: Error, Sendable, CustomStringConvertible {
    /// What went wrong, in words for the feed's error.
    public var message: String

    /// An error saying `message`.
    public init(_ message: String) { self.message = message }

    /// The message alone.
    public var description: String { message }
}

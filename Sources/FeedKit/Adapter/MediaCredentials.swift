/// What authenticates the request for one of a feed's mirrored images
/// (``FeedAdapter/mediaCredentials(for:)``): the feed's own credentials, in the form its data
/// requests carry them. An adapter gives them only for an image on the feed's own origin
/// (scheme, host and port), so that no image host ever sees them.
///
/// The engine sends the headers, appends the query items to the URL it requests (the URL the
/// store keeps is the one the row names, without them), and, for OAuth2, sends the request
/// through an ``OAuth2Session``: the process's cached access token, renewed once when the image
/// server answers 401, the renewed token kept in the feed's `_state` as a pass keeps it.
public struct MediaCredentials: Sendable {
    /// Headers such as `Authorization: Bearer ...` or an API key's header.
    public var headers: [HTTPHeader]
    /// Query parameters such as an API key sent as `?api_key=...`.
    public var query: [(name: String, value: String)]
    /// The feed's OAuth2 credentials, whose access token goes in `Authorization`.
    public var oauth2: OAuth2Credentials?

    /// Credentials sent with each image request: `headers`, `query` items, or an OAuth2 access token.
    public init(
        headers: [HTTPHeader] = [], query: [(name: String, value: String)] = [], oauth2: OAuth2Credentials? = nil
    ) {
        self.headers = headers
        self.query = query
        self.oauth2 = oauth2
    }

    /// No credentials: the image is requested as it is named.
    public static let none = MediaCredentials()

    /// The request for the image at `url`: `url` with the query items, and the headers.
    public func request(for url: String) -> FetchRequest {
        FetchRequest(
            url: URLQuery.appending(query.map { ($0.name, $0.value) }, to: url), headers: headers, cacheable: false)
    }
}

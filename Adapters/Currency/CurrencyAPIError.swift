/// An error the rates API reported in its body.
///
/// The API answers errors with HTTP 200 and `{"success": false, "error": {code, type?, info}}`,
/// so the body is checked, not the status. `type` is missing from some older error bodies.
public struct CurrencyAPIError: Error, Sendable, Hashable, CustomStringConvertible {
    public var feed: String
    /// The request's URL, secrets redacted.
    public var url: String
    public var code: Int64?
    public var type: String?
    public var info: String?

    public init(feed: String, url: String, code: Int64?, type: String?, info: String?) {
        self.feed = feed
        self.url = url
        self.code = code
        self.type = type
        self.info = info
    }

    public var description: String {
        var text = "feed '\(feed)': \(url): the API reported error"
        if let code { text += " \(code)" }
        if let type { text += " (\(type))" }
        text += ": " + (info ?? "no details given")
        return text
    }
}

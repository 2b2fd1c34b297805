import FeedKit
import Foundation

/// The final response of an exchange made by ``CurlHTTPClient``, after any redirects.
///
/// Any status is a response, 4xx and 5xx included; only failures to get a response are errors.
public struct HTTPResponse: Sendable, Hashable {
    public var status: Int
    /// Header values by lowercased name, from the last hop only (the last one wins for repeated headers).
    public var headers: [String: String]
    /// The decoded body.
    public var body: Data
    /// The URL that answered, after redirects.
    public var effectiveURL: String
    /// Body bytes as received on the wire (before decoding), over all hops.
    public var bytesReceived: Int

    public init(status: Int, headers: [String: String], body: Data, effectiveURL: String, bytesReceived: Int) {
        self.status = status
        self.headers = headers
        self.body = body
        self.effectiveURL = effectiveURL
        self.bytesReceived = bytesReceived
    }
}

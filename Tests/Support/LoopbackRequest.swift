import Foundation

/// A request as ``LoopbackServer`` received it.
public struct LoopbackRequest: Sendable {
    /// `GET`, `POST`...
    public var method: String
    /// The request target as sent: path and query, e.g. `/items?page=2`.
    public var target: String
    /// The path, without the query, still percent-encoded.
    public var path: String
    /// The query's names and values, percent-decoded, in order.
    public var queryItems: [(name: String, value: String)]
    /// Header values by lowercased name (the last one wins for repeated headers).
    public var headers: [String: String]
    public var body: Data
    /// This request's place among all the requests the server received: 1 for the first.
    /// Handlers use it to script sequences (`request.number == 1 ? .status(500) : .json("{}")`).
    public var number: Int = 0

    public init(
        method: String, target: String, headers: [String: String] = [:], body: Data = Data()
    ) {
        self.method = method
        self.target = target
        self.headers = headers
        self.body = body
        let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        path = parts.first.map(String.init) ?? target
        queryItems = parts.count > 1 ? Self.parseQuery(String(parts[1])) : []
    }

    /// The value of header `name` (any case).
    public func header(_ name: String) -> String? { headers[name.lowercased()] }

    /// The first value of query item `name`.
    public func query(_ name: String) -> String? { queryItems.first { $0.name == name }?.value }

    /// The body as UTF-8 text.
    public var bodyText: String { String(decoding: body, as: UTF8.self) }

    private static func parseQuery(_ query: String) -> [(name: String, value: String)] {
        query.split(separator: "&").map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func decode(_ text: Substring) -> String {
                let spaced = text.replacingOccurrences(of: "+", with: " ")
                return spaced.removingPercentEncoding ?? spaced
            }
            return (decode(parts[0]), parts.count > 1 ? decode(parts[1]) : "")
        }
    }
}

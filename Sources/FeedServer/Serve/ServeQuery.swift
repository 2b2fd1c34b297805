import Foundation
import Hummingbird

/// A request's query string, decoded the way an HTML form encodes it
/// (`application/x-www-form-urlencoded`): `+` is a space, `%2B` a plus, and every `%XX` a byte of
/// UTF-8, in keys as in values. Every route of `feedwork serve` reads its query through this one
/// decoder: Hummingbird's `queryParameters` leaves a `+` as it is (so a filter typed with a space
/// in a GET form would look for a plus) and keys undecoded. The links serve writes encode with
/// ``URLText/encode(_:)``, which this reads back whole.
struct ServeQuery: Sendable {
    /// The pairs in the order they were sent; a key without `=` has the empty value.
    let pairs: [(key: String, value: String)]

    /// - Throws: a 400 ``ServeError`` when a key or a value is not valid percent-encoded UTF-8,
    ///   or holds a NUL byte (see ``Hummingbird/Parameters/decoded(_:)``).
    init(_ query: String?) throws(ServeError) {
        var pairs: [(key: String, value: String)] = []
        for pair in (query ?? "").split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let decoded = parts.map { $0.replacingOccurrences(of: "+", with: " ").removingPercentEncoding }
            guard let key = decoded[0], let value = decoded.count > 1 ? decoded[1] : "" else {
                throw .badRequest("the query string holds '\(pair)', which is not percent-encoded UTF-8")
            }
            guard !key.utf8.contains(0), !value.utf8.contains(0) else {
                throw .badRequest("the query string holds '\(pair)', with a NUL byte (%00), which no value has")
            }
            pairs.append((key, value))
        }
        self.pairs = pairs
    }

    /// The first value of `key`, if the query has it.
    subscript(_ key: String) -> String? { pairs.first { $0.key == key }?.value }

    /// Every value of `key`, in order.
    subscript(values key: String) -> [String] { pairs.filter { $0.key == key }.map(\.value) }
}

extension Request {
    /// This request's query string, decoded (``ServeQuery``).
    ///
    /// - Throws: a 400 ``ServeError`` when it is not valid percent-encoded UTF-8.
    func decodedQuery() throws(ServeError) -> ServeQuery { try ServeQuery(uri.query) }
}

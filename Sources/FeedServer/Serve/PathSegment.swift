import Hummingbird

extension Parameters {
    /// The path parameter `name`, percent-decoded.
    ///
    /// Links carry every byte of a name or key outside the unreserved characters
    /// percent-encoded (``Pages/segment(_:)``), so a key holding `/`, `%`, `?`, `#`, a space or
    /// `é` is one segment of the link, and comes back whole here. The router hands segments
    /// over as they were sent.
    ///
    /// - Throws: a 400 ``ServeError`` when the segment is not valid percent-encoded UTF-8.
    func decoded(_ name: String) throws -> String {
        let raw = try require(name)
        guard let text = raw.removingPercentEncoding else {
            throw ServeError.badRequest("'\(raw)' is not a valid percent-encoded UTF-8 path segment")
        }
        return text
    }
}

import Hummingbird

extension Parameters {
    /// The path parameter `name`, percent-decoded.
    ///
    /// Links carry every byte of a name or key outside the unreserved characters
    /// percent-encoded (``Pages/segment(_:)``), so a key holding `/`, `%`, `?`, `#`, a space or
    /// `é` is one segment of the link, and comes back whole here. The router hands segments
    /// over as they were sent.
    ///
    /// A NUL byte (`%00`) is refused: no feed, entity or key holds one (PostgreSQL cannot store
    /// it), and the SQLite library reads a text only up to it, so `ads%00` would find `ads`.
    ///
    /// - Throws: a 400 ``ServeError`` when the segment is not valid percent-encoded UTF-8 or
    ///   holds a NUL byte.
    func decoded(_ name: String) throws -> String {
        let raw = try require(name)
        guard let text = raw.removingPercentEncoding else {
            throw ServeError.badRequest("'\(raw)' is not a valid percent-encoded UTF-8 path segment")
        }
        guard !text.utf8.contains(0) else {
            throw ServeError.badRequest("the path segment '\(raw)' holds a NUL byte (%00), which no name or key has")
        }
        return text
    }
}

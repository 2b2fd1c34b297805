extension FetchResponse {
    /// The body parsed as XML, into the tree ``XMLReader`` describes (attributes as `@name`,
    /// every value a string with its exact text).
    ///
    /// - Parameter feed: the feed that asked for the response, for the error.
    /// - Throws: ``PayloadError`` at `$`, naming the feed, the URL, and the line and column of
    ///   the problem, when the body is not well-formed XML.
    public func xml(feed: String) throws(PayloadError) -> JSONValue {
        do {
            return try XMLReader.parse(body)
        } catch {
            throw PayloadError(feed: feed, url: url, path: "$", message: error.description)
        }
    }

    /// The body parsed as CSV, into a list of objects named by the header row (``CSVReader``).
    ///
    /// - Parameters:
    ///   - feed: the feed that asked for the response, for the error.
    ///   - dialect: the delimiter, quote, header row and encoding: comma-separated, with a header
    ///     row, by default.
    /// - Throws: ``PayloadError`` at `$`, naming the feed, the URL and the line of the problem.
    public func csv(feed: String, dialect: CSVDialect = CSVDialect()) throws(PayloadError) -> JSONValue {
        do {
            return try CSVReader.parse(body, dialect: dialect)
        } catch {
            throw PayloadError(feed: feed, url: url, path: "$", message: error.description)
        }
    }
}

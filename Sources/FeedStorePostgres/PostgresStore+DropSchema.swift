import FeedStore

extension PostgresStore {
    /// Drops `schema` on the server at `url` with everything in it, when it is there: a test's
    /// throwaway store. One blocking statement on a connection of its own, for a caller that
    /// cannot await (a `deinit`).
    ///
    /// - Throws: ``PostgresError`` when the server cannot be reached or refuses the statement.
    package static func dropSchema(_ schema: String, url: String) throws(PostgresError) {
        try PostgresConnection(url: url).execute("DROP SCHEMA IF EXISTS \(PostgresSQL.identifier(schema)) CASCADE")
    }
}

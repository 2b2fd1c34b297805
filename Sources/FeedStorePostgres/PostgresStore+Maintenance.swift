import FeedStore

/// What is done to a server's store outside any pass, for tests (`StoreFactory`'s
/// maintenance): each on a connection of its own, which takes no lease and checks nothing.
extension PostgresStore {
    /// Runs `sql` (one statement or several) in `schema` on the server at `url`, on a thread of
    /// its own: for tests that damage or age what a pass left, even a store this Feedwork would
    /// refuse to open.
    ///
    /// - Throws: ``PostgresError`` when the server cannot be reached or refuses a statement.
    package static func execute(_ sql: String, schema: String, url: String) async throws {
        try await StoreThread(label: "feedwork.postgres.execute").perform {
            let connection = try PostgresConnection(url: url)
            try connection.execute("SET search_path TO \(PostgresSQL.identifier(schema))")
            try connection.execute(sql)
        }
    }

    /// Drops `schema` on the server at `url` with everything in it, when it is there: a test's
    /// throwaway store. One blocking statement, for a caller that cannot await (a `deinit`).
    ///
    /// - Throws: ``PostgresError`` when the server cannot be reached or refuses the statement.
    package static func dropSchema(_ schema: String, url: String) throws(PostgresError) {
        try PostgresConnection(url: url).execute("DROP SCHEMA IF EXISTS \(PostgresSQL.identifier(schema)) CASCADE")
    }
}

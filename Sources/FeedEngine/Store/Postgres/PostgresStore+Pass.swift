import FeedKit
import Foundation

/// Passes on PostgreSQL: the run row with its tables, and the pass's transaction.
extension PostgresStore: StoreDriver {
    /// Nothing: the connections end when the store goes away, and the server keeps nothing
    /// that closing them earlier would spare the next process.
    func close() async throws {}

    func lease(of feed: String, wait: FeedDuration) async throws -> AnyObject? {
        try await PostgresFeedLease.take(url: url, schema: schema, feed: feed, wait: .milliseconds(wait.milliseconds))
    }

    func startRun(feed: String, adapter: String, bindings: [EntityBinding], at started: Date) async throws -> Int64 {
        try await write { connection in
            try Self.prepare(bindings, in: connection)
            let rows = try connection.execute(
                "INSERT INTO _runs(feed, adapter, started_at, status) VALUES ($1, $2, $3, 'running') RETURNING id",
                [feed, adapter, Timestamp.string(started)])
            return Int64(rows[0, 0] ?? "") ?? 0
        }
    }

    /// Unlike SQLite's, which allows one writer, each pass writes on a connection and thread of
    /// its own, made when its first job arrives: passes of different feeds in one process
    /// write at the same time, as they do from different processes.
    func passTransaction(feed: String, run: Int64, stamp: String, bindings: [EntityBinding]) -> FeedTransaction {
        let (url, schema, location) = (url, schema, location)
        return FeedTransaction(writer: StoreWriter(label: "feedwork.postgres.pass"), location: location) { body in
            let connection = try PostgresConnection(url: url)
            try connection.execute("SET search_path TO \(PostgresSQL.identifier(schema))")
            try connection.execute("BEGIN")
            let scope = PostgresPassTransaction(
                connection: connection, location: location, feed: feed, run: run, stamp: stamp, bindings: bindings)
            defer { scope.close() }
            do {
                if try body(scope) {
                    try connection.execute("COMMIT")
                } else {
                    try connection.execute("ROLLBACK")
                }
            } catch {
                _ = try? connection.execute("ROLLBACK")
                throw error
            }
        }
    }

    /// Creates or extends the tables of `bindings`, records their schemas, declares the foreign
    /// keys of their enforced relations and writes their views (``PostgresEntityView``), as
    /// SQLite's ``SQLiteStore/prepare(_:in:path:)`` does.
    static func prepare(_ bindings: [EntityBinding], in connection: PostgresConnection) throws {
        for binding in bindings {
            let schema = binding.schema
            let kept = try connection.execute("SELECT history FROM _entities WHERE name = $1", [schema.name])
            let history = kept.first(column: 0) == "t" || binding.mode == .append
            if history, let problem = ForeignKey.historyProblem(schema.name, schemas: try schemas(in: connection)) {
                throw StoreError(path: connection.location, message: problem + "; nothing was changed")
            }
            try PostgresEntityTable.ensure(schema, keyed: !history, in: connection)
            let json = String(decoding: try JSONEncoder().encode(schema), as: UTF8.self)
            try connection.execute(
                """
                INSERT INTO _entities(name, schema, history) VALUES ($1, $2, $3)
                ON CONFLICT (name) DO UPDATE SET schema = excluded.schema, history = excluded.history
                """, [schema.name, json, history ? "true" : "false"])
        }
        // Once every table is there: a foreign key may point at a table of a later binding.
        for binding in bindings { try PostgresEntityTable.setForeignKeys(binding.schema, in: connection) }
        let known = try schemas(in: connection)
        for binding in bindings { try PostgresEntityView.ensure(binding.schema, schemas: known, in: connection) }
    }
}

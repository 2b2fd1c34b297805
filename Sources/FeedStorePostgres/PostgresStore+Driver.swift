import FeedKit
import FeedStore
import Foundation

/// Passes on PostgreSQL: the run row with its tables, and the pass's transaction.
extension PostgresStore: StoreDriver {
    /// Nothing: the connections end when the store goes away, and the server keeps nothing
    /// that closing them earlier would spare the next process.
    package func close() async throws {}

    /// None: the store is a schema on a server.
    package var file: String? { nil }
    /// Never: processes share a server's store, each pass leasing its feed.
    package var holdsExclusiveLock: Bool { false }

    package func lease(of feed: String, wait: FeedDuration) async throws -> AnyObject? {
        try await PostgresFeedLease.take(
            pool: pool, schema: schema, feed: feed, wait: .milliseconds(wait.milliseconds), silence: silence)
    }

    package func startRun(feed: String, adapter: AdapterOrigin, at started: Date) async throws -> Int64 {
        try await write { connection in
            // After a commit of the feed's pass under way, or before it: never beside it
            // (``PostgresRunFence``). This pass holds the feed's lease, so a run of the feed
            // still `running` lost its own (its process died, or went silent and its session
            // was ended): it is interrupted before this one starts, and can no longer commit.
            try connection.execute(PostgresRunFence.lockSQL, [feed])
            try connection.execute(
                "UPDATE _runs SET status = 'interrupted' WHERE feed = $1 AND status = 'running'", [feed])
            let rows = try connection.execute(
                """
                INSERT INTO _runs(feed, adapter, adapter_module, started_at, status)
                VALUES ($1, $2, $3, $4, 'running') RETURNING id
                """,
                [feed, adapter.name, adapter.module, Timestamp.string(started)])
            return Int64(rows[0, 0] ?? "") ?? 0
        }
    }

    /// Unlike SQLite's, which allows one writer, each pass writes on a connection and thread of
    /// its own: passes of different feeds in one process write at the same time, as they do from
    /// different processes. The connection is taken from the store's pool
    /// (``PostgresConnectionPool``) when the pass's first job arrives, and given back once the
    /// pass committed or rolled back without an error. The tables of `bindings`
    /// are prepared first in the pass's transaction (PostgreSQL's DDL is transactional), so a
    /// pass that fails leaves no table, column or view behind; a pass that changes an entity's
    /// tables holds their locks, and the entity's, until it commits.
    package func passTransaction(feed: String, run: Int64, stamp: String, bindings: [EntityBinding]) -> FeedTransaction
    {
        let (pool, schema, location, silence) = (pool, schema, location, silence)
        return FeedTransaction(
            writer: StoreThread(label: "feedwork.postgres.pass"), location: location, holdsStoreWriter: false,
            keepAlive: PostgresLiveness.beat(for: silence)
        ) { body in
            let connection = try pool.take { connection throws(PostgresError) in
                try connection.execute("SET search_path TO \(PostgresSQL.identifier(schema))")
            }
            try connection.execute("BEGIN")
            // A pass whose process went silent (paused, cut off) is rolled back by the server,
            // and lets go of the rows it locked, instead of holding the feed until it wakes.
            try connection.execute(
                "SET LOCAL idle_in_transaction_session_timeout = \(PostgresLiveness.milliseconds(silence))")
            let database = PassDatabase(
                connection: PostgresSQLConnection(connection: connection),
                writer: { binding in
                    PostgresEntityWriter(
                        schema: binding.schema, mode: binding.mode, feed: feed, run: run, stamp: stamp,
                        connection: connection)
                },
                prepare: { try Self.prepare($0, in: connection) },
                checkForeignKeys: { entities in
                    try PostgresEntityTable.checkForeignKeys(ofPass: feed, entities: entities, in: connection)
                },
                checkRunMayCommit: { try PostgresRunFence.check(run: run, feed: feed, in: connection) },
                holdsWrites: true)
            let scope = PassWriter(database: database, location: location, feed: feed, run: run, bindings: bindings)
            defer { scope.close() }
            do {
                try Self.prepare(bindings, in: connection)
                if try body(scope) {
                    try scope.sendHeld()
                    try connection.execute("COMMIT")
                } else {
                    try connection.execute("ROLLBACK")
                }
            } catch {
                // Not given back: the error may be the connection's own.
                _ = try? connection.execute("ROLLBACK")
                throw error
            }
            pool.giveBack(connection)
        }
    }

    /// Drops `target` in one transaction (``StoreDrop``), holding the lock that serializes
    /// changes to a dropped entity's tables; returns what was removed.
    package func drop(_ target: DropTarget) async throws -> String {
        try await write { connection in
            switch target {
            case .entity(let name), .column(let name, _):
                try connection.execute(PostgresSQL.entityChangeLockSQL, [name.lowercased()])
            case .feed: break
            }
            return try StoreDrop.drop(
                target, on: PostgresSQLConnection(connection: connection), dialect: PostgresDialect())
        }
    }

    /// Prepares the entities of `bindings` on `connection` (``SchemaPreparation``).
    static func prepare(_ bindings: [EntityBinding], in connection: PostgresConnection) throws {
        for binding in bindings {
            if let problem = PostgresNames.problems(binding.schema).first {
                throw StoreError(path: connection.location, message: problem + "; nothing was changed")
            }
        }
        // Passes in other transactions (other processes, or adapters declaring entities during
        // their passes) would race to create the same tables and types, and all but one fail on
        // PostgreSQL's catalog: unless every entity is recorded as it is wanted, the entities'
        // locks are taken (in the order of their names, so two passes never wait for each
        // other's), and what is there is read again once they are held. A pass whose entities
        // are in place runs no statement at all: even an upsert that changes nothing locks its
        // `_entities` row until the pass commits, and two passes writing one entity then
        // deadlocked (one waiting for that row, the other for the table the first had locked).
        let sql = PostgresSQLConnection(connection: connection)
        if try SchemaPreparation.isCurrent(bindings, on: sql) { return }
        for name in Set(bindings.map { $0.schema.name.lowercased() }).sorted() {
            try connection.execute(PostgresSQL.entityChangeLockSQL, [name])
        }
        try SchemaPreparation.prepare(bindings, on: sql, dialect: PostgresDialect())
    }
}

import CSQLiteTuning
import FeedKit
import FeedStore
import Foundation
import GRDB

/// The SQLite store: one table per entity plus the system tables `_runs`, `_rejects`,
/// `_http_cache`, `_state`, `_outbox` and `_entities` (the schemas, so exports need no config).
///
/// The file is opened in WAL mode, so readers (`export`, `list`) work while a run writes.
/// Writes happen in one transaction per feed pass; see ``FeedTransaction``.
package final class SQLiteStore: Sendable {
    /// The store file's path.
    package let path: String
    let pool: DatabasePool
    /// The thread every write runs on.
    let writer = StoreThread(label: "feedwork.writer")
    /// Credentials renewed while a pass's transaction held the writer, until `_state` has them.
    package let credentialJournal: CredentialJournal?
    /// The store's run lock, when it was opened to run feeds: held as long as the store.
    private let lock: SQLiteStoreLock?
    /// Whether this store holds the file's exclusive lock: no other process writes it.
    var holdsLock: Bool { lock != nil }

    /// SQLite's process-wide settings, applied once before the first connection opens: memory
    /// statistics off, as Feedwork never reads them and they cost the writer thread a mutex on
    /// every allocation (about 7% of its instructions). Too late when another part of the
    /// process opened SQLite first, which is harmless.
    private static let sqliteConfigured: Void = { _ = feedwork_sqlite_disable_memory_statistics() }()

    /// Opens (creating when missing) the store at `path` and brings its system tables up to date.
    /// With `lock` (taken before: ``SQLiteStoreLock``), the store holds it until it goes away.
    ///
    /// - Throws: ``StoreError`` when the file cannot be opened, is not a Feedwork store, or was
    ///   written by a newer Feedwork (whose tables this one would misread).
    package init(path: String, holding lock: SQLiteStoreLock? = nil) throws {
        self.path = path
        credentialJournal = CredentialJournal(storePath: path)
        self.lock = lock
        _ = Self.sqliteConfigured
        do {
            let directory = URL(fileURLWithPath: path).deletingLastPathComponent()
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            var configuration = Configuration()
            configuration.busyMode = .timeout(10)
            configuration.label = "feedwork.store"
            pool = try DatabasePool(path: path, configuration: configuration)
            if try pool.read(SQLiteMigrations.migrator.hasBeenSuperseded) { throw StoreError.newerFeedwork(path) }
            try SQLiteMigrations.migrate(pool)
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError(sqlite: path, error)
        }
    }

    /// Opens the existing store at `path` for reading only (`export`, `list`): nothing is
    /// created, migrated or written, so a read-only file, folder or mount works.
    ///
    /// In WAL mode even a reader needs a `-shm` file beside the store; when the folder cannot
    /// hold one, the store is opened immutable (SQLite then takes no locks and reads the file as
    /// it is, which is what a folder nobody can write guarantees).
    ///
    /// - Throws: ``StoreError`` when the file cannot be read, is not a Feedwork store, or was
    ///   written by an older Feedwork and needs a run (with write access) to be brought up to date.
    package init(readingAt path: String) throws {
        self.path = path
        credentialJournal = CredentialJournal(storePath: path)
        lock = nil
        _ = Self.sqliteConfigured
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(10)
        configuration.label = "feedwork.store.read"
        func open(_ location: String) throws -> DatabasePool {
            let pool = try DatabasePool(path: location, configuration: configuration)
            // Both checks on the connection the pool opens with itself (its writer, read-only
            // here): a read would open a reader's connection now, which parses the store's
            // schema again; it opens with the first read instead (`feedwork serve`: after it
            // listens).
            let (superseded, completed) = try pool.writeWithoutTransaction { db in
                (
                    try SQLiteMigrations.migrator.hasBeenSuperseded(db),
                    try SQLiteMigrations.migrator.hasCompletedMigrations(db)
                )
            }
            if superseded { throw StoreError.newerFeedwork(path) }
            guard completed else {
                throw StoreError(
                    path: path,
                    message:
                        "the store was written by an older Feedwork; run `feedwork run` once with write access to update it"
                )
            }
            return pool
        }
        do {
            pool = try open(path)
        } catch let error as StoreError {
            throw error
        } catch {
            do {
                pool = try open(Self.immutableURI(path))
            } catch let error as StoreError {
                throw error
            } catch {
                throw StoreError(sqlite: path, error)
            }
        }
    }

    /// `path` as an SQLite URI that opens it immutable (SQLite is built with URI filenames).
    static func immutableURI(_ path: String) -> String {
        var allowed = CharacterSet.alphanumerics.intersection(CharacterSet(charactersIn: "\u{0}"..."\u{7f}"))
        allowed.insert(charactersIn: "/-._~")
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        return "file:" + (absolute.addingPercentEncoding(withAllowedCharacters: allowed) ?? absolute) + "?immutable=1"
    }

    /// Prepares the entities of `bindings` in `db` (``SchemaPreparation``).
    static func prepare(_ bindings: [EntityBinding], in db: Database, path: String) throws {
        try SchemaPreparation.prepare(
            bindings, on: SQLiteSQLConnection(db: db, location: path), dialect: SQLiteDialect())
    }

    /// Runs `body` with a read-only connection on a consistent snapshot, on one of GRDB's reader
    /// threads: the caller awaits without blocking its own.
    package func read<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        do {
            return try await pool.read(body)
        } catch {
            throw StoreError(sqlite: path, error)
        }
    }

    /// Runs `body`, which runs one statement, with a read-only connection and no transaction
    /// around it: the statement reads a consistent snapshot of its own, without the `BEGIN` and
    /// `COMMIT` statements that ``read(_:)`` adds.
    func readOneStatement<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        do {
            return try await pool.unsafeRead(body)
        } catch {
            throw StoreError(sqlite: path, error)
        }
    }

    /// Runs `body` in its own write transaction on the writer thread (``StoreThread``), and
    /// waits without blocking the caller's thread.
    ///
    /// Feed passes hold the write lock on that thread while they wait for their tasks, so a
    /// blocking write from a task could starve the cooperative pool and deadlock: every write
    /// goes through here or through a pass's ``FeedTransaction``.
    func write<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        let (pool, path) = (self.pool, self.path)
        return try await writer.perform {
            do {
                return try pool.write(body)
            } catch {
                throw StoreError(sqlite: path, error)
            }
        }
    }
}

/// What the jobs written once for every driver need of the SQLite store (``StoreDriver``): its
/// connections, its one writer's pass transactions and its credential journal.
extension SQLiteStore: StoreDriver {
    package var location: String { path }
    package var file: String? { path }
    package var holdsExclusiveLock: Bool { holdsLock }
    package var dialect: any SQLDialect { SQLiteDialect() }

    /// One process holds the store: the board keeps this machine's time.
    package var capabilities: StoreCapabilities { StoreCapabilities(sharedByMachines: false) }

    package func readSQL<T: Sendable>(_ body: @escaping @Sendable (any SQLConnection) throws -> T) async throws -> T {
        let path = self.path
        return try await read { try body(SQLiteSQLConnection(db: $0, location: path)) }
    }

    package func writeSQL<T: Sendable>(_ body: @escaping @Sendable (any SQLConnection) throws -> T) async throws -> T {
        let path = self.path
        return try await write { try body(SQLiteSQLConnection(db: $0, location: path)) }
    }

    /// Without the `BEGIN` and `COMMIT` that ``readSQL(_:)`` sends around the statement
    /// (``readOneStatement(_:)``).
    package func readOneSQL<T: Sendable>(_ body: @escaping @Sendable (any SQLConnection) throws -> T) async throws
        -> T
    {
        let path = self.path
        return try await readOneStatement { try body(SQLiteSQLConnection(db: $0, location: path)) }
    }

    /// Runs `body` in one read transaction (a snapshot: SQLite's write-ahead log keeps what it
    /// began with); errors of `body`'s own pass through unwrapped.
    package func snapshotSQL<T: Sendable>(_ body: @escaping @Sendable (any SQLConnection) throws -> T)
        async throws -> T
    {
        let path = path
        do {
            return try await pool.read { try body(SQLiteSQLConnection(db: $0, location: path)) }
        } catch let error as DatabaseError {
            throw StoreError(sqlite: path, error)
        }
    }

    /// None: the engine holds the store's lock (``SQLiteStoreLock``) for the whole run.
    package func lease(of feed: String, wait: FeedDuration) async throws -> AnyObject? { nil }

    /// Closes the readers' connections, then the writer's, on the writer thread. The last
    /// connection to close checkpoints the write-ahead log into the file and deletes it; a
    /// process that ends with its connections open leaves the log (24 MB after W1's 100,000
    /// rows), which the next process to open the store reads whole before its first statement.
    package func close() async throws {
        let (pool, path) = (self.pool, self.path)
        try await writer.perform {
            pool.releaseMemory()
            do {
                try pool.close()
            } catch {
                throw StoreError(sqlite: path, error)
            }
        }
    }

    /// The transaction of one feed's pass: `BEGIN IMMEDIATE` on the writer thread, the tables
    /// of `bindings` prepared first (so they roll back with a pass that fails), then the pass's
    /// jobs applied by a ``PassWriter``.
    package func passTransaction(feed: String, run: Int64, stamp: String, bindings: [EntityBinding]) -> FeedTransaction
    {
        let (pool, path) = (self.pool, self.path)
        return FeedTransaction(writer: writer, location: path, holdsStoreWriter: true) { body in
            do {
                try Self.runPass(pool: pool, path: path, feed: feed, run: run, stamp: stamp, bindings: bindings, body)
            } catch let error as DatabaseError {
                throw StoreError(sqlite: path, error)
            }
        }
    }

    /// The pass's transaction on the writer's connection (``passTransaction(feed:run:stamp:bindings:)``).
    private static func runPass(
        pool: DatabasePool, path: String, feed: String, run: Int64, stamp: String, bindings: [EntityBinding],
        _ body: (PassWriter) throws -> Bool
    ) throws {
        try pool.writeWithoutTransaction { db in
            let database = PassDatabase(
                connection: SQLiteSQLConnection(db: db, location: path),
                writer: { binding in
                    SQLiteEntityWriter(
                        schema: binding.schema, mode: binding.mode, feed: feed, run: run, stamp: stamp, db: db)
                },
                prepare: { try SQLiteStore.prepare($0, in: db, path: path) },
                foreignKeysBroken: { SQLiteSQLConnection(db: db, location: path).foreignKeysBroken() })
            let scope = PassWriter(
                database: database, location: path, feed: feed, run: run, stamp: stamp, bindings: bindings)
            defer { scope.close() }
            try db.inTransaction(.immediate) {
                try SQLiteStore.prepare(bindings, in: db, path: path)
                guard try body(scope) else { return .rollback }
                try scope.sendHeld()
                return .commit
            }
        }
    }
}

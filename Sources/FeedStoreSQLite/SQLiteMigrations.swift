import FeedKit
import FeedStore
import GRDB

/// The versions of the store's system tables, applied in order when a store is opened.
///
/// A new store is created from ``SystemTables`` at once; a store made by an older Feedwork
/// opens cleanly: the migrations it lacks run once, in one transaction. Never edit, rename or
/// reorder a released migration (their identifiers are in the stores in use); add a new one, and
/// change ``SystemTables`` to the shape it leaves.
enum SQLiteMigrations {
    /// Brings the store `writer` opens up to date. An empty file becomes a store of the latest
    /// version in one transaction: the tables of ``SystemTables``, and every migration recorded
    /// as applied in GRDB's `grdb_migrations`, as if they had run. Any other file gets the
    /// migrations it lacks.
    static func migrate(_ writer: some DatabaseWriter) throws {
        let migrator = self.migrator
        try writer.writeWithoutTransaction { db in
            try db.inTransaction(.immediate) {
                guard try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master") == 0 else { return .commit }
                for statement in SystemTables.all.flatMap({ $0.createStatements(in: SQLiteDialect()) }) {
                    try db.execute(sql: statement)
                }
                // The table GRDB's migrator keeps, as it creates it.
                try db.execute(sql: "CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY)")
                for identifier in migrator.migrations {
                    try db.execute(sql: "INSERT INTO grdb_migrations(identifier) VALUES (?)", arguments: [identifier])
                }
                return .commit
            }
        }
        try migrator.migrate(writer)
    }

    /// Every migration, era by era in release order: each era's file registers its own, and a
    /// new migration goes at the end of the latest era's file (or in a new era's file, registered
    /// last here).
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        registerFirstStore(in: &migrator)
        registerHistory(in: &migrator)
        registerWorkers(in: &migrator)
        registerSchemaChangesAndMedia(in: &migrator)
        registerAdapterModules(in: &migrator)
        registerManyMachines(in: &migrator)
        return migrator
    }
}

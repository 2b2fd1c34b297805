import GRDB

extension SQLiteMigrations {
    /// Adapter modules: the module of the adapter each run used (v12).
    static func registerAdapterModules(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v12: the adapter module of each run") { db in
            try db.execute(sql: "ALTER TABLE _runs ADD COLUMN adapter_module TEXT")
        }
    }
}

import GRDB

extension SQLiteMigrations {
    /// Many machines: the schedule's due and held feeds found by index rather than by reading
    /// the whole board at each claim (v13).
    static func registerManyMachines(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v13: the schedule's due and held feeds by index") { db in
            try db.execute(
                sql: """
                    CREATE INDEX _schedule_due ON _schedule(next_run_at, feed);
                    CREATE INDEX _schedule_held ON _schedule(lease_until) WHERE claimed_by IS NOT NULL;
                    """)
        }
    }
}

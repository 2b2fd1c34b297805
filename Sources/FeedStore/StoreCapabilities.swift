/// What a store's database does beyond the SQL its dialect writes (``SQLDialect``), which the
/// jobs written once for every driver ask when they differ by it.
package struct StoreCapabilities: Sendable, Hashable {
    /// Whether workers on many machines share the store (PostgreSQL). Its schedule board then
    /// keeps time by the database server's clock (``Store/clock()``), not the machines',
    /// and a claim takes over what dead workers left of the feeds it claims
    /// (``StoreDriver/interruptAbandonedRuns(of:in:)``). A store one process holds (SQLite) has neither.
    package var sharedByMachines: Bool

    package init(sharedByMachines: Bool) {
        self.sharedByMachines = sharedByMachines
    }
}

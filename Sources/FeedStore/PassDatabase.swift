import FeedKit

/// What a pass's writer (``PassWriter``) needs of its driver besides statements: the writers
/// of its entities (where a driver may bring faster ones of its own) and the checks of their
/// tables, where the databases truly differ. Made by
/// the driver as it opens the pass's transaction; lives on that transaction's thread.
package struct PassDatabase {
    /// The pass's connection, in its transaction.
    package var connection: any SQLConnection
    /// The writer of an entity's records in this pass: the driver's own, or `nil` for the one
    /// written once for every driver (``SQLEntityWriter``, a few statements per batch of records).
    package var writer: ((EntityBinding) -> any EntityWriting)?
    /// Creates or extends the tables of entities the adapter declares during the pass
    /// (``SchemaPreparation``), in the pass's transaction.
    package var prepare: ([EntityBinding]) throws -> Void
    /// Whether a row the pass wrote points at nothing through an enforced relation, so that its
    /// commit would fail: the database's count of the deferred checks' violations (SQLite), or
    /// the checks run now and taken back (PostgreSQL). Then ``PassWriter`` looks for the row
    /// (``ForeignKey/violation(ofPass:entities:on:)``).
    package var foreignKeysBroken: () throws -> Bool
    /// Throws unless the pass may still commit: on a store many processes share, whether the
    /// pass still holds its feed (PostgreSQL's run fence). Nothing by default.
    package var checkRunMayCommit: () throws -> Void
    /// Whether the pass holds its responses and state to store them together, while an entity's
    /// rows are on their way to the database anyway (``PassWriter/storeCache(_:)``): worth it
    /// where each statement is a round trip to a server. Without it each is stored at once and
    /// nothing waits in memory (a page's body is held until stored).
    package var holdsWrites: Bool

    package init(
        connection: any SQLConnection, writer: ((EntityBinding) -> any EntityWriting)? = nil,
        prepare: @escaping ([EntityBinding]) throws -> Void,
        foreignKeysBroken: @escaping () throws -> Bool,
        checkRunMayCommit: @escaping () throws -> Void = {}, holdsWrites: Bool = false
    ) {
        self.connection = connection
        self.writer = writer
        self.prepare = prepare
        self.foreignKeysBroken = foreignKeysBroken
        self.checkRunMayCommit = checkRunMayCommit
        self.holdsWrites = holdsWrites
    }
}

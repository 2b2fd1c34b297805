import FeedKit

/// What the reading commands (`list`, `export`, `runs`, `rejects`, `price`, `serve`) ask of a
/// store, whichever database holds it: a driver opened by ``StoreFactory/reading(_:redactor:)``.
protocol StoreReading: StoredRows, StoreHistory, StoreSQL, FeedResponseCacheReading, Sendable {
    /// The store, for messages: a file path or a server URL without its password.
    var location: String { get }
    /// The dialect of the store's SQL, for the export's queries.
    var dialect: any SQLDialect { get }
    /// The schemas of every entity the store holds, by name.
    func schemas() throws -> [String: EntitySchema]
    /// The names of the feeds that have run on the store, sorted.
    func feedsThatRan() throws -> [String]
    /// Every feed on the worker's schedule, by name.
    func scheduleEntries() throws -> [String: ScheduleEntry]
    /// Runs `body` on one consistent snapshot of the store, which an export reads all its
    /// tables from; errors of the export itself pass through unwrapped.
    func exportSnapshot<T>(_ body: (any ExportSnapshot) throws -> T) throws -> T
}

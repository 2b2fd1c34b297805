import Foundation

/// One feed's pass: what an adapter uses to fetch, write and remember.
///
/// Everything written through a pass lands in the feed's single transaction, committed when
/// ``FeedAdapter/run(_:)`` returns and rolled back when it throws: the store then holds either
/// the previous rows or the new ones, never a mix.
///
/// The engine makes the pass; an adapter only uses it. `FeedHarness` (in `FeedTestSupport`)
/// runs an adapter's pass against a temporary store, for tests.
public final class FeedPass: Sendable {
    /// The feed's name.
    public let feed: String
    /// The run id of this pass; rows it changes carry it in `_run`.
    public let runID: Int64
    /// "Now" for this pass: the current time, or the recording's start when a fixture suite is
    /// replayed. Every date template and derived date (today, this week's window) renders from
    /// it, so a replay makes the same requests on any day.
    public let startedAt: Date
    /// Hides secrets in text the adapter keeps: rejects (which the pass redacts itself), and
    /// whatever it stores or builds messages from. Notes, log lines and the error a pass ends
    /// with need no redacting by the adapter: the engine redacts all of them where they leave
    /// the pass.
    public let redactor: Redactor
    /// The folder relative paths are read from (the config file's folder).
    public let baseDirectory: URL
    /// Whether the run is `--offline`: every response comes from the cache, so a credential
    /// that would have to be fetched (an OAuth2 token) is not needed.
    public let isOffline: Bool
    private let clockStart: ContinuousClock.Instant
    private let backend: any PassBackend

    /// Made by the engine for each pass.
    package init(
        feed: String, runID: Int64, startedAt: Date, redactor: Redactor, baseDirectory: URL, isOffline: Bool = false,
        backend: any PassBackend
    ) {
        self.isOffline = isOffline
        self.feed = feed
        self.runID = runID
        self.startedAt = startedAt
        self.redactor = redactor
        self.baseDirectory = baseDirectory
        self.backend = backend
        self.clockStart = ContinuousClock.now
    }

    /// Milliseconds since the pass started, by a monotonic clock.
    public var elapsedMilliseconds: Int {
        let elapsed = ContinuousClock.now - clockStart
        return Int(elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000)
    }

    /// Performs `request` through the engine's fetcher (retries, cache, limits) and counts it.
    ///
    /// A response that refreshes the response cache is stored in the feed's transaction, so the
    /// cache only ever describes data that was committed.
    ///
    /// - Throws: the fetcher's error, naming the (redacted) URL, when the request fails after its
    ///   retries and no cached response can stand in for it.
    public func fetch(_ request: FetchRequest) async throws -> FetchResponse {
        try await backend.fetch(request)
    }

    /// Parses a response's body as JSON.
    ///
    /// - Throws: ``PayloadError`` naming the feed, the URL and the position when the body is not
    ///   JSON.
    public func parseJSON(_ response: FetchResponse) throws(PayloadError) -> JSONValue {
        try response.json(feed: feed)
    }

    /// Parses a response's body as XML, into the tree ``XMLReader`` describes.
    ///
    /// - Throws: ``PayloadError`` naming the feed, the URL, the line and the column when the
    ///   body is not well-formed XML.
    public func parseXML(_ response: FetchResponse) throws(PayloadError) -> JSONValue {
        try response.xml(feed: feed)
    }

    /// Writes a batch: its records (upserted by key, in the modes the feed declares), its rejects
    /// (kept with their reasons and the batch's ``RecordBatch/source``, unless they have their
    /// own) and its notes (added to the feed's report).
    ///
    /// A key delivered twice in one pass is written once, the last delivery winning; the report
    /// counts the duplicates.
    public func write(_ batch: RecordBatch) async throws {
        for text in batch.notes { note(text) }
        let source = batch.source.map(redacted)
        if !batch.records.isEmpty { try await backend.write(batch.records, source: source) }
        if !batch.rejects.isEmpty {
            let rejects = batch.rejects.map { reject in
                var copy = reject
                copy.reason = redactor.redact(copy.reason)
                copy.raw = redactor.redact(copy.raw)
                copy.source = reject.source.map(redacted) ?? source
                return copy
            }
            try await backend.reject(rejects)
        }
    }

    /// Deletes the feed's rows of `entity` whose keys are `keys` (each an ``EntityRecord/key``:
    /// the key fields' values joined with `|`), for a source that says a record is gone, such
    /// as a changes feed's `"deleted": true`.
    ///
    /// Each row deleted leaves a tombstone, as the rows a `replace` pass no longer delivers do:
    /// `feedwork export --changed-since ... --include-deleted` lists it, and the report counts
    /// it as deleted. A key the store does not hold is left alone (nothing is counted); a key
    /// delivered again later (in this pass or a later one) is a live row again. Deletions take
    /// their place among the pass's writes: a record written before the deletion is deleted,
    /// one written after it stays. In `append` mode every version of the key is deleted.
    /// Committed with the pass, like every write.
    ///
    /// - Throws: when `entity` is not one the feed writes, or the store fails.
    public func delete(entity: String, keys: [String]) async throws {
        guard !keys.isEmpty else { return }
        try await backend.delete(keys, entity: entity)
    }

    /// `source` with secrets hidden in its URL, which an adapter may have built itself.
    private func redacted(_ source: RecordSource) -> RecordSource {
        RecordSource(url: redactor.redact(source.url), page: source.page)
    }

    /// Counts `count` records of `entity` as unchanged without writing them.
    ///
    /// For records an adapter knows to be the ones already stored, such as those of a page the
    /// server answered with 304 Not Modified: they add to the report's `unchanged` count, and
    /// their rows (including `_last_seen`) are left as they are. Not for `replace` entities, whose
    /// rows a pass does not deliver are deleted.
    public func countUnchanged(_ count: Int, entity: String) async throws {
        guard count > 0 else { return }
        try await backend.countUnchanged(count, entity: entity)
    }

    /// Adds a line to the feed's report (e.g. "3 of 5 offers kept"); the engine redacts
    /// secrets in it where it leaves the pass, for the report and `_runs`.
    public func note(_ text: String) {
        backend.note(text)
    }

    /// Declares an entity the adapter learns of only while the pass runs, before writing it.
    ///
    /// Most adapters know their entities up front (``FeedAdapter/entities``), and the engine
    /// creates their tables before the pass. An adapter whose source announces its schemas as it
    /// goes (a Singer tap's `SCHEMA` messages) declares each one here instead: inside the pass's
    /// transaction, the entity's table is created (or gains the new columns), its schema is
    /// recorded and its view written, so all of it rolls back with a pass that fails. Declaring
    /// an entity again with the same binding does nothing.
    ///
    /// - Throws: when the entity is already declared with another schema or mode, or its table
    ///   in the store cannot take the schema (a column of another type).
    public func declare(_ binding: EntityBinding) async throws {
        try await backend.declare(binding)
    }

    /// Asks the engine for another pass of this feed as soon as this one commits, for work an
    /// adapter splits over several commits (a backfill's date windows, ``showProgress(_:)``
    /// saying how far it got): each pass has its own transaction, run record and `_state`, so
    /// an interrupted run loses at most the pass under way, and the next one resumes after the
    /// last commit. The engine runs the next pass within the same `feedwork run` (or worker
    /// pass) only when this one committed and the run was not interrupted; the next pass reads
    /// the `_state` this one stored even in a `--full-refresh` run. An adapter asks only when
    /// the next pass would start further on than this one did, or passes would never end.
    public func continueAfterCommit() {
        backend.continueAfterCommit()
    }

    /// Shows `text` (such as "window 6 of 13") next to the feed's counters in the progress
    /// display of `feedwork run`, until the pass ends or the adapter shows another.
    public func showProgress(_ text: String) {
        backend.showProgress(text)
    }

    /// How much a ``log(_:level:)`` line matters; the user picks the lowest level shown
    /// (`--log-level`).
    public enum LogLevel: String, Sendable, CaseIterable {
        /// What an adapter does step by step, for finding out why a feed behaves as it does.
        case debug
        /// What a source says in its normal course (the default of ``FeedPass/log(_:level:)``).
        case info
        /// Something a user may want to act on, though the pass goes on as usual.
        case notice
        /// Something went wrong but the pass goes on (a record skipped, a fallback taken).
        case warning
        /// Something failed; the pass may still end, or fail with its own error.
        case error
    }

    /// Writes `text` to the run's log at `level`, tagged with the feed's name, secrets
    /// redacted (by the engine, whose pass logger redacts every line): for what an adapter's
    /// source says while it works, such as a child process's standard error.
    public func log(_ text: String, level: LogLevel = .info) {
        backend.log(text, level: level)
    }

    /// The value this feed stored under `key` in an earlier pass, or `nil`.
    public func state(_ key: String) async throws -> String? {
        try await backend.state(key)
    }

    /// The values this feed stored under keys that start with `prefix`, by their full key.
    public func states(withPrefix prefix: String) async throws -> [String: String] {
        try await backend.states(withPrefix: prefix)
    }

    /// The `_state` key of a feed's incremental cursor: what a pass stores under it is shown by
    /// `feedwork list` as the feed's cursor.
    public static let cursorStateKey = "cursor"

    /// The prefix of `_state` keys that hold credentials (such as a sealed OAuth2 token): they
    /// are read even by a `--full-refresh` pass, which ignores every other stored state, since
    /// a rotated refresh token is the only one the API still accepts.
    public static let credentialStatePrefix = "auth."

    /// The prefix of `_state` keys that describe columns a feed gave the store's tables (the
    /// json adapter's `extra: columns`): they are read even by a `--full-refresh` pass, since
    /// the tables keep those columns whatever the pass reads again.
    public static let schemaStatePrefix = "schema."

    /// The prefixes of the `_state` keys a `--full-refresh` pass reads all the same
    /// (``credentialStatePrefix``, ``schemaStatePrefix``).
    public static let lastingStatePrefixes = [credentialStatePrefix, schemaStatePrefix]

    /// Stores `value` under `key` (removes it for `nil`), committed with the pass.
    public func setState(_ key: String, _ value: String?) async throws {
        try await backend.setState(key, value)
    }

    /// Queues GET requests to `urls`, committed with the pass and delivered after it commits;
    /// undelivered ones are retried on later runs.
    public func enqueueOutbox(_ urls: [String]) async throws {
        guard !urls.isEmpty else { return }
        // Kept with placeholders for the secrets, which are put back at delivery.
        try await backend.enqueueOutbox(urls.map(redactor.seal))
    }

    /// Rows of `entity` as the store held them before this pass (any feed's), for rules that
    /// depend on earlier data, such as not offering the same destination twice.
    ///
    /// - Parameters:
    ///   - entity: the entity's name, as in its ``EntitySchema/name``.
    ///   - filters: conditions in `feedwork export --where` syntax, all of which must hold:
    ///     `field=value`, `!=`, `<`, `<=`, `>`, `>=`, `~` (contains); system columns such as
    ///     `_feed` included. Values are bound, never spliced into a query.
    ///   - order: field names, `-name` for descending.
    ///   - limit: the most rows to return.
    /// - Returns: each row's fields by name; no rows when the store holds no such entity yet.
    public func storedRows(
        of entity: String, where filters: [String] = [], order: [String] = [], limit: Int? = nil
    ) async throws -> [[String: FieldValue]] {
        try await backend.rows.rows(of: entity, where: filters, order: order, limit: limit)
    }
}

/// What a pass asks of the engine, which implements it for each pass. Not part of the SDK.
package protocol PassBackend: Sendable {
    func fetch(_ request: FetchRequest) async throws -> FetchResponse
    /// Writes `records`; `source` goes with any the engine rejects itself (such as a key holding a secret).
    func write(_ records: [EntityRecord], source: RecordSource?) async throws
    func reject(_ rejects: [Reject]) async throws
    func countUnchanged(_ count: Int, entity: String) async throws
    /// Deletes the feed's rows of `entity` with these keys, leaving tombstones.
    func delete(_ keys: [String], entity: String) async throws
    /// A line for the report, redacted by the engine where it leaves the pass.
    func note(_ text: String)
    func state(_ key: String) async throws -> String?
    func states(withPrefix prefix: String) async throws -> [String: String]
    func setState(_ key: String, _ value: String?) async throws
    func enqueueOutbox(_ sealedURLs: [String]) async throws
    /// Creates or extends the entity's table inside the pass's transaction and starts writing it.
    func declare(_ binding: EntityBinding) async throws
    /// A line for the run's log, redacted by the engine's pass logger.
    func log(_ text: String, level: FeedPass.LogLevel)
    /// Marks the pass as one after which the engine runs another (``FeedPass/continueAfterCommit()``).
    func continueAfterCommit()
    /// The pass's progress beyond its counters, for the progress display.
    func showProgress(_ text: String)
    var rows: any StoredRows { get }
}

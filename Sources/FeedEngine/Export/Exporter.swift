import FeedKit
import FeedStore
import FeedStoreDrivers
import Foundation

/// Exports entities of a store as NDJSON, JSON, CSV or Singer messages, streaming rows from
/// SQLite or PostgreSQL.
///
/// The store's `_entities` table holds every entity's schema, so an export needs neither the
/// config nor the adapters. Each export reads one consistent snapshot (``ExportSnapshot``),
/// even while a run writes.
///
/// ```swift
/// var request = ExportRequest(entity: "fruit")
/// request.filters = [try ExportFilter(where: "price<200")]
/// let rows = try await Exporter(config: config).export(request, format: .csv, to: .standardOutput())
/// ```
public struct Exporter: Sendable {
    let store: any StoreReading

    /// Exports from `store`.
    init(store: any StoreReading) { self.store = store }

    /// Exports from the store of `config`: its SQLite file (opened read-only; it must exist)
    /// or its PostgreSQL schema.
    public init(config: FeedsConfig) throws { store = try config.readingStore() }

    /// Exports from the store at `location` (an SQLite file must exist); a server's errors are
    /// redacted with `redactor`.
    public init(location: StoreLocation, redactor: Redactor = Redactor()) throws {
        store = try StoreFactory.reading(location, redactor: redactor)
    }

    var dialect: any SQLDialect { store.dialect }

    func storedSchemas() async throws -> [String: EntitySchema] { try await store.schemas() }

    /// Checks `request` against the store and returns its query, without running it.
    public func query(for request: ExportRequest) async throws -> ExportQuery {
        let query = try ExportQuery.build(request, schemas: try await storedSchemas(), dialect: dialect)
        if !request.feeds.isEmpty { try await checkFeeds(request.feeds) }
        return query
    }

    /// Writes the rows `request` selects to `output` in `format` (then, with
    /// ``ExportRequest/includeDeleted``, its tombstones) and flushes it; `formulas` says what
    /// CSV does with cells a spreadsheet would run.
    ///
    /// - Returns: the number of rows and of deleted rows written.
    /// - Throws: a usage ``ExportError`` for a request that does not fit the store; a runtime
    ///   ``ExportError`` or ``StoreError`` when reading or writing fails.
    @discardableResult
    public func export(
        _ request: ExportRequest, format: ExportFormat, to output: ExportOutput,
        formulas: CSVWriter.Formulas = .verbatim
    ) async throws -> ExportCount {
        if format == .singer, request.includeDeleted { throw SingerState.noDeletedRows }
        let query = try await query(for: request)
        // The snapshot's thread writes the output while this task waits for it: one user at a time.
        nonisolated(unsafe) let output = output
        let count = try await read { snapshot in
            var writer = format.makeWriter(for: query, formulas: formulas)
            let count = try snapshot.stream(query, writer: &writer, to: output)
            if format == .singer { try Self.endSingerStream(in: snapshot, to: output) }
            return count
        }
        try output.flush()
        return count
    }

    /// Writes every entity and child table to `output` as one Singer stream (a SCHEMA and the
    /// RECORDs of each table, then one STATE), from one snapshot.
    ///
    /// - Returns: the number of tables and of rows written.
    public func exportAllSinger(
        to output: ExportOutput, feeds: [String] = [], changedSince: ChangedSince? = nil, includeMeta: Bool = false
    ) async throws -> (tables: Int, rows: Int) {
        let schemas = try await storedSchemas()
        if !feeds.isEmpty { try await checkFeeds(feeds) }
        // The snapshot's thread writes the output while this task waits for it: one user at a time.
        nonisolated(unsafe) let output = output
        let total = try await read { snapshot in
            var total = (tables: 0, rows: 0)
            for table in ExportTable.all(in: schemas) {
                var request = ExportRequest(entity: table.name)
                request.feeds = feeds
                request.changedSince = changedSince
                request.includeMeta = includeMeta
                let query = try ExportQuery.build(request, schemas: schemas, dialect: snapshot.dialect)
                var writer = ExportFormat.singer.makeWriter(for: query)
                total.rows += try snapshot.stream(query, writer: &writer, to: output).rows
                total.tables += 1
            }
            try Self.endSingerStream(in: snapshot, to: output)
            return total
        }
        try output.flush()
        return total
    }

    /// The STATE that ends a Singer stream: the last run the snapshot holds completely.
    private static func endSingerStream(in snapshot: ExportSnapshot, to output: ExportOutput) throws {
        output.append(SingerState.message(run: try snapshot.completeRun()))
        output.append(UInt8(ascii: "\n"))
    }

    /// Writes every entity and child table to `directory` (created when missing) as
    /// `<table>.<format>`, each file atomically, then `manifest.json`, all from one snapshot.
    /// With `includeDeleted` (which needs `changedSince`), each file ends with the table's
    /// tombstones and the manifest gives their count. `formulas` is as for ``export(_:format:to:formulas:)``.
    public func exportAll(
        format: ExportFormat, to directory: String, feeds: [String] = [], changedSince: ChangedSince? = nil,
        changedSinceText: String? = nil, includeMeta: Bool = false, includeDeleted: Bool = false, media: Bool = false,
        formulas: CSVWriter.Formulas = .verbatim
    ) async throws -> ExportManifest {
        if includeDeleted, changedSince == nil { throw DeletedRows.needsChangedSince }
        let schemas = try await storedSchemas()
        if !feeds.isEmpty { try await checkFeeds(feeds) }
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw ExportError.runtime("cannot create the folder \(directory): \(error.localizedDescription)")
        }
        let folder = URL(fileURLWithPath: directory)
        var manifest = try await read { snapshot in
            let run = try snapshot.completeRun()
            var entries: [ExportManifest.Entry] = []
            for table in ExportTable.all(in: schemas) {
                var request = ExportRequest(entity: table.name)
                request.feeds = feeds
                request.changedSince = changedSince
                request.includeMeta = includeMeta
                request.includeDeleted = includeDeleted
                request.media = media ? .paths : .hashes
                let query = try ExportQuery.build(request, schemas: schemas, dialect: snapshot.dialect)
                let file = "\(table.name).\(format.fileExtension)"
                let count = try AtomicFile.write(to: folder.appendingPathComponent(file).path) { output in
                    var writer = format.makeWriter(for: query, formulas: formulas)
                    return try snapshot.stream(query, writer: &writer, to: output)
                }
                entries.append(
                    ExportManifest.Entry(
                        entity: table.name, parent: table.parent, file: file, rows: count.rows,
                        deleted: includeDeleted ? count.deleted : nil,
                        columns: query.fields.map(ExportManifest.ManifestColumn.init)))
            }
            return ExportManifest(
                format: format, run: run, changedSince: changedSinceText, exportedAt: Timestamp.string(Date()),
                entities: entries)
        }
        if media { manifest.media = try await copyMedia(feeds: feeds, into: folder.appendingPathComponent("media")) }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let json = try encoder.encode(manifest)
        try AtomicFile.write(to: folder.appendingPathComponent("manifest.json").path) { output in
            output.append(json)
            output.append(UInt8(ascii: "\n"))
        }
        return manifest
    }

    func checkFeeds(_ feeds: [String]) async throws {
        let known = try await store.feedsThatRan()
        for feed in feeds where !known.contains(feed) {
            let list = known.isEmpty ? "none has run yet" : "feeds: " + known.joined(separator: ", ")
            throw ExportError.unknownName("--feed: no feed '\(feed)' has run on this store; \(list)")
        }
    }

    /// Reads on one snapshot, on the store's own thread; errors of the export itself pass
    /// through unwrapped.
    func read<T: Sendable>(_ body: @escaping @Sendable (ExportSnapshot) throws -> T) async throws -> T {
        try await store.exportSnapshot(body)
    }
}

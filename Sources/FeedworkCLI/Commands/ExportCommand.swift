import ArgumentParser
import FeedEngine
import FeedFixtures
import FeedKit
import Foundation

/// `feedwork export`: entities of the store as NDJSON, JSON, CSV or Singer messages.
struct ExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Export an entity (or every entity) of the store as NDJSON, JSON, CSV or Singer messages.",
        discussion: """
            Rows stream from the store, so memory stays flat whatever the table's size. The store \
            keeps every entity's schema, so no adapter is needed; a run may write meanwhile.

            Values keep their types: integers and reals as JSON numbers, booleans as true/false, \
            decimals as strings holding the exact digits, timestamps as ISO 8601 UTC strings, json \
            columns embedded. CSV follows RFC 4180 (CRLF, quoted fields, a header row); null is an \
            empty field and an empty string is "".

            --where takes FIELD=VALUE, FIELD!=VALUE (keeps nulls), <, <=, >, >=, and FIELD~VALUE \
            (contains, ignoring ASCII case). Decimals compare as numbers, timestamps as ISO 8601 \
            text. A related entity's name filters by its key or its label: --where category=Maison.

            --search "words" keeps the rows whose full-text index holds every word (an entity \
            whose feed declares search: [fields]), whatever their case; best matches first unless \
            --order is given.

            --changed-since RUN keeps rows inserted or changed by runs after RUN (run ids are in \
            the run report and the manifest); --changed-since TIMESTAMP keeps rows changed by runs \
            that started at or after it. With --include-deleted, the rows replace passes deleted \
            in that window follow, one per key still gone: in NDJSON and JSON \
            {"_deleted":true, the key fields, "_feed", "_key", "_run" (the run that deleted it)}; \
            in CSV a last column _deleted is true for them and empty for the other rows.

            --format singer writes Singer messages for any Singer target: a SCHEMA per table, \
            a RECORD per row and a final STATE {"feedwork_run": N}; --all writes every table as \
            one stream (to stdout or --output). Give the last state a target printed back to \
            --changed-since (the JSON or a file holding it) to feed the target incrementally.

            --output writes a regular file atomically (a failed export leaves no file); through a \
            symlink it replaces the link's target; a FIFO or a device (/dev/null) is written in \
            place; - and /dev/stdout are standard output. It refuses the store and its files \
            (compared by device and inode, so links to them too), folders, and any SQLite \
            database unless --force.

            Exit status: 0 on success, 2 for a usage error (unknown entity or field, bad option, \
            refused --output), 1 when reading the store or writing the output fails.

            Examples:
              feedwork export fruit
              feedwork export fruit --format csv --output fruit.csv
              feedwork export classified --format csv --csv-formulas neutralized
              feedwork export fruit --where 'price<200' --order -price --limit 3
              feedwork export classified --where category=Maison --columns id,title,price
              feedwork export classified --search "canapé cuir" --limit 10
              feedwork export fruit --changed-since 41 --include-meta
              feedwork export fruit --changed-since 41 --include-deleted
              feedwork export --all --output-dir out --format csv
              feedwork export --all --output-dir out --media
              feedwork export fruit --format singer
              feedwork export --all --format singer --changed-since state.json
            """)

    @OptionGroup var options: ConfigOptions

    @Option(
        help: "The store: a file, or a PostgreSQL URL (schema `feedwork`) (default: the store of the config).",
        completion: .file())
    var store: String?

    @Argument(help: "The entity (or child table <entity>__<list>) to export.", completion: Completions.entities)
    var entity: String?

    @Option(help: "ndjson, json, csv or singer.")
    var format: ExportFormat = .ndjson

    @Option(
        name: [.short, .long],
        help: "Write to this file (atomically; a symlink's target, a FIFO or a device in place; - for stdout).")
    var output: String?

    @Flag(help: "Let --output replace a file that is a SQLite database (never the store itself).")
    var force = false

    @Flag(help: "Export every entity and child table, one file each plus manifest.json, into --output-dir.")
    var all = false

    @Option(help: "The folder of --all.", completion: .directory)
    var outputDir: String?

    @Option(name: .customLong("feed"), help: "Only rows of this feed (repeatable).", completion: Completions.feeds)
    var feeds: [String] = []

    @Option(name: .customLong("where"), help: "A condition FIELD=VALUE, != < <= > >= or ~ (repeatable).")
    var conditions: [String] = []

    // Unconditional, so a value starting with '-' (`--order -price`) is the order, not an option.
    @Option(
        parsing: .unconditional,
        help: "Order by these fields, '-' for descending: -price,type (default: the entity's order).")
    var order: String?

    @Option(help: "At most this many rows.")
    var limit: Int?

    @Option(help: "Only rows whose full-text index holds these words, best matches first (an entity with search:).")
    var search: String?

    @Option(help: "Only these columns, in this order: a,b,c (may name _ columns).")
    var columns: String?

    @Flag(help: "Also write the _ columns (_feed, _key, _hash, _run, _first_seen, _last_seen).")
    var includeMeta = false

    @Option(help: "Only rows changed after this run id, or by runs started at or after this ISO 8601 time.")
    var changedSince: String?

    @Flag(help: "After the changed rows, the rows deleted since --changed-since (marked _deleted).")
    var includeDeleted = false

    @Flag(
        help:
            "With --all --output-dir: copy the mirrored images into DIR/media/ (named by hash) and add each media column's <column>_path."
    )
    var media = false

    @Option(
        name: .customLong("csv-formulas"),
        help:
            "verbatim, or neutralized: CSV text cells beginning with = + - @ (or a tab or CR) get a leading ' so spreadsheets do not run them."
    )
    var formulas: CSVWriter.Formulas = .verbatim

    private func optionProblem() -> String? {
        if formulas != .verbatim, format != .csv { return "--csv-formulas applies to --format csv" }
        if format == .singer {
            if outputDir != nil { return "--format singer writes one stream (stdout or --output), not --output-dir" }
            if includeDeleted { return SingerState.noDeletedRows.message }
        }
        if all {
            guard entity == nil else { return "give an entity or --all, not both" }
            guard outputDir != nil || format == .singer else { return "--all needs --output-dir DIR" }
            guard output == nil || format == .singer else {
                return "--all writes into --output-dir; --output is for one entity"
            }
            let oneEntityOnly = [
                ("--where", !conditions.isEmpty), ("--order", order != nil), ("--limit", limit != nil),
                ("--columns", columns != nil), ("--search", search != nil),
            ]
            if let (name, _) = oneEntityOnly.first(where: { $0.1 }) {
                return "\(name) applies to one entity; it cannot be used with --all"
            }
        } else {
            guard entity != nil else { return "name an entity to export, or use --all --output-dir DIR" }
            guard outputDir == nil else { return "--output-dir goes with --all; use --output for one entity" }
        }
        if media, !all || outputDir == nil {
            return "--media copies images into a folder: use it with --all --output-dir DIR"
        }
        if let limit, limit < 0 { return "--limit must be 0 or more" }
        if includeDeleted, changedSince == nil { return DeletedRows.needsChangedSince.message }
        return nil
    }

    func run() async throws {
        // Checked here rather than in `validate()`, which also runs for `--help`.
        if let problem = optionProblem() { throw CommandFailure.usage(problem) }
        let config = try store == nil ? options.loadToRead() : nil
        let storePath = store ?? config?.storePath ?? ""
        // Checked before the store is opened: an output must never be the store or its files.
        let target = try output.map { text throws(ExportError) in
            try ExportTarget.resolve(text, storePath: storePath, force: force)
        }
        let location = config?.storeLocation ?? StoreLocation(storePath)
        try ConfigOptions.requireStore(at: location)
        let exporter = try Exporter(location: location, redactor: config?.redactor ?? Redactor())
        let changedSince = try changedSince.map { text throws(ExportError) in try ChangedSince(parsing: text) }
        if all, format == .singer {
            let write = { (file: ExportOutput) async throws -> (tables: Int, rows: Int) in
                try await exporter.exportAllSinger(
                    to: file, feeds: feeds, changedSince: changedSince, includeMeta: includeMeta)
            }
            if let output, let target {
                let total = try await target.write(write)
                if !target.isOwnDescriptor {
                    Console.error(
                        "exported \(total.tables) table(s), \(total.rows) row(s) as Singer messages to \(output)")
                }
            } else {
                _ = try await write(.standardOutput())
            }
        } else if all, let outputDir {
            let manifest = try await exporter.exportAll(
                format: format, to: outputDir, feeds: feeds, changedSince: changedSince,
                changedSinceText: self.changedSince, includeMeta: includeMeta, includeDeleted: includeDeleted,
                media: media, formulas: formulas)
            let rows = manifest.entities.reduce(0) { $0 + $1.rows }
            let deleted = manifest.entities.reduce(0) { $0 + ($1.deleted ?? 0) }
            Console.error(
                "exported \(manifest.entities.count) table(s), \(rows) row(s)\(includeDeleted ? ", \(deleted) deleted" : "")\(manifest.media.map { ", \($0) image(s)" } ?? "") to \(outputDir) (complete up to run \(manifest.run))"
            )
        } else if let entity {
            let request = try makeRequest(entity: entity, changedSince: changedSince)
            if let output, let target {
                let count = try await target.write { file in
                    try await exporter.export(request, format: format, to: file, formulas: formulas)
                }
                if !target.isOwnDescriptor {
                    let deleted = includeDeleted ? ", \(count.deleted) deleted" : ""
                    Console.error("exported \(count.rows) row(s)\(deleted) of \(entity) to \(output)")
                }
            } else {
                try await exporter.export(request, format: format, to: .standardOutput(), formulas: formulas)
            }
        }
    }

    private func makeRequest(entity: String, changedSince: ChangedSince?) throws(ExportError) -> ExportRequest {
        var request = ExportRequest(entity: entity)
        request.feeds = feeds
        request.filters = try conditions.map { text throws(ExportError) in try ExportFilter(where: text) }
        request.order = try order.map { text throws(ExportError) in try OrderTerm.parseList(text) } ?? []
        request.limit = limit
        request.columns =
            columns?.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty } ?? []
        request.includeMeta = includeMeta
        request.changedSince = changedSince
        request.includeDeleted = includeDeleted
        request.search = try search.map { text throws(ExportError) in try SearchQuery(text) }
        return request
    }
}

extension ExportFormat: ExpressibleByArgument {}
extension CSVWriter.Formulas: ExpressibleByArgument {}

import FeedKit
import Foundation

/// Runs a Singer tap and loads its streams: each stream an entity, its RECORDs rows, its last
/// STATE kept for the next pass.
///
/// ```yaml
/// - name: github
///   adapter: singer
///   command: [tap-github]             # on PATH, or a path relative to feeds.yaml
///   config: { access_token: "${GITHUB_TOKEN}", repository: apple/swift }
///   catalog: github-catalog.json      # optional: entities known before any pass
///   tap_timeout: 30m
///   streams: { issues: { write: merge } }
/// ```
///
/// The tap runs as a child process in the config file's folder with standard input from
/// `/dev/null`; its standard output is read line by line (``TapLineReader``), its standard error
/// goes to the run's log. A stream's entity comes from the catalog when there is one, else from
/// its SCHEMA message, declared during the pass (``FeedPass/declare(_:)``).
public struct SingerAdapter: FeedAdapter {
    /// A singer feed's keys.
    public struct Options: Decodable, Sendable {
        /// The tap and its arguments: `[tap-rest-api-msdk, --config, tap.json]`. The executable
        /// is looked up on `PATH` unless it holds a `/` (then it is relative to feeds.yaml); the
        /// tap runs in feeds.yaml's folder, so relative arguments are read from there.
        public var command: [String]
        /// A Singer catalog file (relative to feeds.yaml), passed as `--catalog`; the feed's
        /// entities are read from it when the feed is made.
        public var catalog: String?
        /// The tap's configuration, written as JSON to a private temporary file passed as
        /// `--config`; values may be `${VAR}`.
        public var config: SingerConfig?
        /// How long the tap may run before it is stopped and the pass fails (default 10m).
        /// (`timeout` is every feed's time limit for one HTTP attempt.)
        public var tapTimeout: FeedDuration?
        /// Options of single streams, by the tap's stream name.
        public var streams: OrderedMapping<StreamOptions>?

        enum CodingKeys: String, CodingKey {
            case command, catalog, config, streams
            case tapTimeout = "tap_timeout"
        }
    }

    /// How one stream is written: `streams: { users: { entity: people, write: replace, key: [id] } }`.
    public struct StreamOptions: Decodable, Sendable, Equatable {
        /// The entity's name, instead of the stream's name made into one.
        public var entity: String?
        /// `merge` (the default), `replace` or `append`.
        public var write: WriteMode?
        /// Key properties, instead of the stream's `key_properties`.
        public var key: [String]?

        enum CodingKeys: String, CodingKey { case entity, write, key }

        public init(entity: String? = nil, write: WriteMode? = nil, key: [String]? = nil) {
            self.entity = entity
            self.write = write
            self.key = key
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            entity = try container.decodeIfPresent(String.self, forKey: .entity)
            key = try container.decodeIfPresent([String].self, forKey: .key)
            if let text = try container.decodeIfPresent(String.self, forKey: .write) {
                guard let mode = WriteMode(rawValue: text) else {
                    throw DecodingError.dataCorruptedError(
                        forKey: .write, in: container, debugDescription: "write must be merge, replace or append")
                }
                write = mode
            }
        }
    }

    public static let description = AdapterDescription(
        name: "singer",
        summary: "Runs a Singer tap and loads its streams, one entity each, resuming from its last STATE.",
        options: [
            OptionHelp("command", "list", "the tap and its arguments; run in feeds.yaml's folder"),
            OptionHelp(
                "config", "mapping", "the tap's config, passed as --config in a private temporary file", default: "none"
            ),
            OptionHelp(
                "catalog", "string", "a Singer catalog file, passed as --catalog; gives the entities up front",
                default: "none"),
            OptionHelp("tap_timeout", "duration", "stop the tap and fail the pass after this long", default: "10m"),
            OptionHelp(
                "streams", "mapping", "per stream: entity, write (merge, replace, append), key", default: "none"),
        ],
        entities: [])

    /// The `_state` key of the tap's last STATE value.
    public static let stateKey = "singer.state"
    static let defaultTimeout = FeedDuration.minutes(10)

    let options: Options
    let directory: URL
    let catalogPath: String?
    let catalogStreams: [SingerStream]
    let streamOptions: [String: StreamOptions]

    public init(options: Options, feed: FeedSetup) throws {
        self.options = options
        let folder = URL(fileURLWithPath: feed.configDirectory, isDirectory: true)
        directory = folder
        var errors = OptionError.List()
        if options.command.first?.isEmpty ?? true {
            errors.append(OptionError("command must name the tap: [tap-name, arguments...]", at: ["command"]))
        }
        if let timeout = options.tapTimeout, timeout.milliseconds <= 0 {
            errors.append(OptionError("tap_timeout must be longer than 0s", at: ["tap_timeout"]))
        }
        var streamOptions: [String: StreamOptions] = [:]
        for (name, stream) in options.streams?.entries ?? [] {
            streamOptions[name] = stream
            if let entity = stream.entity, SingerNames.sanitized(entity) != entity {
                errors.append(
                    OptionError(
                        "entity name '\(entity)' must be letters, digits and single underscores, starting with a letter (such as '\(SingerNames.sanitized(entity))')",
                        at: ["streams", name, "entity"]))
            }
            if stream.key?.isEmpty == true {
                errors.append(OptionError("key must name at least one property", at: ["streams", name, "key"]))
            }
        }
        self.streamOptions = streamOptions
        let catalogFile = options.catalog.map { URL(fileURLWithPath: $0, relativeTo: folder).standardizedFileURL.path }
        catalogPath = catalogFile
        catalogStreams =
            errors.check { () throws(OptionError) in
                guard let catalogFile else { return [] }
                return try Self.readCatalog(catalogFile, options: streamOptions)
            } ?? []
        try errors.throwIfAny()
    }

    /// The catalog's streams; an option error at `catalog` when it cannot be read.
    private static func readCatalog(_ path: String, options: [String: StreamOptions]) throws(OptionError)
        -> [SingerStream]
    {
        do {
            let data = try Data(contentsOf: URL(fileURLWithPath: path))
            return try SingerCatalog.streams(try JSONParser.parse(data), options: options)
        } catch let reason as SingerError.Reason {
            throw OptionError("catalog \(path): \(reason)", at: ["catalog"])
        } catch {
            throw OptionError("catalog \(path): \(error)", at: ["catalog"])
        }
    }

    /// The catalog's streams when there is a catalog; otherwise none, and each stream is
    /// declared when its SCHEMA comes.
    public var entities: [EntityBinding] { catalogStreams.map(\.binding) }

    /// The tap's files (config and state in a private folder), its executable and arguments.
    private func prepare(state: String?) throws(SingerError.Reason) -> (TapFiles, URL, [String]) {
        let files = try TapFiles()
        var arguments = Array(options.command.dropFirst())
        if let config = options.config {
            arguments += ["--config", try files.write(config.json.jsonText, as: "config.json")]
        }
        if let catalogPath { arguments += ["--catalog", catalogPath] }
        if let state { arguments += ["--state", try files.write(state, as: "state.json")] }
        return (files, try TapCommand.executable(options.command[0], directory: directory), arguments)
    }

    /// Why the pass fails after the tap ended, if it does: the timeout or the tap's status. The
    /// error that stopped reading is rethrown, and `CancellationError` thrown for a cancelled pass.
    private static func verdict(
        _ tap: TapProcess, termination: TapProcess.Termination, readError: (any Error)?, limit: FeedDuration
    ) throws -> SingerError.Reason? {
        switch tap.stopReason {
        case .timedOut?:
            switch tap.terminationBeforeStop {
            case .exited(let status)?: return .outputHeldOpen(limit, .exited(status), stderr: tap.lastErrorLines)
            case .signal(let signal)?:
                return .outputHeldOpen(limit, .killed(signal: signal), stderr: tap.lastErrorLines)
            case nil: return .timedOut(limit, stderr: tap.lastErrorLines)
            }
        case .cancelled?: throw CancellationError()
        default: break
        }
        try Task.checkCancellation()
        if let readError { throw readError }
        switch termination {
        case .exited(0): return nil
        case .exited(let status): return .exited(status: status, stderr: tap.lastErrorLines)
        case .signal(let signal): return .killed(signal: signal, stderr: tap.lastErrorLines)
        }
    }

    public func run(_ pass: FeedPass) async throws {
        let command = pass.redactor.redact(options.command.joined(separator: " "))
        func failure(_ reason: SingerError.Reason, line: Int? = nil) -> SingerError {
            SingerError(feed: pass.feed, command: command, line: line, reason: reason)
        }
        let (files, executable, arguments): (TapFiles, URL, [String])
        do {
            (files, executable, arguments) = try prepare(state: try await pass.state(Self.stateKey))
        } catch let reason as SingerError.Reason {
            throw failure(reason)
        }
        try Task.checkCancellation()
        let tap: TapProcess
        do {
            tap = try TapProcess(executable: executable, arguments: arguments, directory: directory) { line in
                pass.log("tap: \(line)")
            }
        } catch {
            throw failure(error)
        }
        pass.log("tap process \(tap.pid) started: \(command)", level: .debug)
        let limit = options.tapTimeout ?? Self.defaultTimeout
        let watchdog = Task {
            try await Task.sleep(for: .milliseconds(limit.milliseconds))
            tap.stop(.timedOut)
        }
        defer { watchdog.cancel() }
        var loader = SingerLoader(pass: pass, command: command, catalog: catalogStreams, streamOptions: streamOptions)
        var line = 0
        var readError: (any Error)?
        do {
            try await withTaskCancellationHandler {
                for try await text in tap.output.lines {
                    tap.output.consumed()
                    line += 1
                    try await loader.consume(text, number: line)
                }
            } onCancel: {
                tap.stop(.cancelled)
            }
        } catch let reason as SingerError.Reason {
            // The reader's: a line it could not take, the one after the last it delivered.
            readError = failure(reason, line: line + 1)
            tap.stop(.failed)
        } catch {
            readError = error
            tap.stop(.failed)
        }
        let termination = await tap.exit()
        withExtendedLifetime(files) {}
        if tap.stoppedLeftovers {
            pass.log(
                "tap process \(tap.pid) exited leaving processes it started running; they were stopped", level: .warning
            )
        }
        if let reason = try Self.verdict(tap, termination: termination, readError: readError, limit: limit) {
            throw failure(reason)
        }
        try await loader.finish()
        if let state = loader.lastState { try await pass.setState(Self.stateKey, state.jsonText) }
    }
}

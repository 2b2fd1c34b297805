import FeedKit
import FeedStore
import Foundation
import Yams

/// Reads feeds.yaml: YAML syntax, `${VAR}`, templates, the known keys, each feed's adapter
/// options, and the consistency of entities across feeds.
///
/// Every problem is reported with `file:line:column`, all at once, so a user fixes a file in
/// one go.
public struct ConfigLoader: Sendable {
    /// Files larger than this are refused before parsing: 8 MiB, four times 10,000 feeds of a
    /// dozen keys each written out in full.
    public static let maximumFileBytes = 8 << 20

    /// What an unset `${VAR}` without a `:-default` is.
    public enum UnsetVariables: Sendable {
        /// A problem naming the variable: for commands that fetch (`run`, `record`) or check
        /// (`validate`).
        case error
        /// Replaced by ``ConfigLoader/placeholder``, a secret like any value from the
        /// environment: for commands that only read the store (`list`, `export`, `price`) and
        /// for fixture replays, whose recordings hold `***` where the secrets were. The store
        /// path is still needed, so a variable in `store:` stays an error.
        case placeholder
    }

    /// What a feed naming an adapter this program does not register is.
    public enum UnknownAdapters: Sendable {
        /// A problem at its `adapter:`: for commands that run feeds or check the config.
        case error
        /// Left out of ``FeedsConfig/feeds`` and listed in ``FeedsConfig/unknownAdapters``:
        /// for commands that only read the store (`list`, `export`, `schema`, `serve`...), whose
        /// rows are there whichever binary wrote them.
        case skipFeed
    }

    /// The value ``UnsetVariables/placeholder`` gives unset variables.
    public static let placeholder = "***"

    public var registry: AdapterRegistry
    public var environment: [String: String]
    public var unsetVariables: UnsetVariables
    public var unknownAdapters: UnknownAdapters

    public init(
        registry: AdapterRegistry, environment: [String: String] = ProcessInfo.processInfo.environment,
        unsetVariables: UnsetVariables = .error, unknownAdapters: UnknownAdapters = .error
    ) {
        self.registry = registry
        self.environment = environment
        self.unsetVariables = unsetVariables
        self.unknownAdapters = unknownAdapters
    }

    /// Loads and validates the config at `path`.
    ///
    /// - Throws: ``ConfigError`` with every problem found.
    public func load(path: String) throws -> FeedsConfig {
        let start = SourceLocation(file: path, line: 1, column: 1)
        let url = URL(fileURLWithPath: path)
        // Foundation's own messages here ("The operation could not be completed") say nothing.
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
            throw ConfigError(
                "no config file here; write one with `feedwork init`, or `feedwork init --from SAMPLE` to start from a sample response",
                at: start)
        }
        guard !isFolder.boolValue else {
            throw ConfigError("this is a folder; give the config file in it, such as \(path)/feeds.yaml", at: start)
        }
        if let problem = ConfigFileCheck.problem(path) { throw ConfigError(problem, at: start) }
        guard FileManager.default.isReadableFile(atPath: path) else {
            throw ConfigError("cannot read the config file: permission denied", at: start)
        }
        let data: Data
        do {
            if let size = FileSize.ofFile(atPath: path), size > Self.maximumFileBytes {
                throw ConfigError(
                    "the file is \(size) bytes, more than the \(Self.maximumFileBytes)-byte limit for a config file",
                    at: start)
            }
            data = try Data(contentsOf: url)
        } catch let error as ConfigError {
            throw error
        } catch {
            throw ConfigError("cannot read the config file: \(error.localizedDescription)", at: start)
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw ConfigError("the file is not valid UTF-8", at: start)
        }
        return try load(yaml: text, path: path, directory: url.deletingLastPathComponent().path)
    }

    /// The YAML document in `text`, composed without resolving tags: a config's readers take
    /// every scalar as text and convert it themselves, so the YAML 1.1 rules of Yams's default
    /// resolver (regular expressions compiled at first use, about a tenth of a short command's
    /// run) would be work for nothing.
    ///
    /// - Throws: ``ConfigError`` at `file`'s line and column where the text nests deeper than
    ///   ``YAMLNesting/maximumDepth`` levels (Yams would overflow the stack on it);
    ///   `YamlError` for a syntax error.
    static func compose(yaml text: String, file: String = "YAML") throws -> Node? {
        if let (line, column) = YAMLNesting.tooDeep(text) {
            throw ConfigError(
                "the YAML is nested more than \(YAMLNesting.maximumDepth) levels deep",
                at: SourceLocation(file: file, line: line, column: column))
        }
        return try Yams.compose(yaml: text, .basic)
    }

    /// Loads and validates config text; `path` is used in messages, `directory` for relative paths.
    public func load(yaml text: String, path: String, directory: String) throws -> FeedsConfig {
        let start = SourceLocation(file: path, line: 1, column: 1)
        let root: Node
        do {
            guard let node = try Self.compose(yaml: text, file: path) else {
                throw ConfigError("the file is empty; it needs at least 'feeds:'", at: start)
            }
            root = node
        } catch let error as ConfigError {
            throw error
        } catch let error as YamlError {
            throw ConfigError([Self.problem(for: error, file: path)])
        } catch {
            throw ConfigError("cannot parse YAML: \(error)", at: start)
        }

        var interpolation = Interpolation(environment: environment, file: path, unsetVariables: unsetVariables)
        guard let document = interpolation.apply(to: root) else { throw ConfigError(interpolation.problems) }
        var problems = interpolation.problems
        let redactor = Redactor(variables: interpolation.variables)
        let decoder = NodeDecoder(file: path)
        func location(_ node: Node) -> SourceLocation { SourceLocation(file: path, mark: node.mark) }

        guard let mapping = document.mapping else {
            throw ConfigError(
                "expected a mapping with 'store', 'defaults' and 'feeds' at the top", at: location(document))
        }
        let top = try TopLevel(document: document, mapping: mapping, decoder: decoder, problems: &problems)
        problems += interpolation.placeheld.filter { $0.location == location(top.storeNode) }
        let store = top.storeLocation(directory: directory)
        problems += top.problems(of: store, redactor: redactor, decoder: decoder)

        var feedDecoder = FeedDecoder(
            registry: registry, decoder: decoder, directory: directory, redactor: redactor, defaults: top.defaults,
            store: store, skipsUnknownAdapters: unknownAdapters == .skipFeed)
        var feeds: [FeedConfig] = []
        for (index, node) in top.feedNodes.enumerated() {
            if let feed = feedDecoder.decode(node, index: index) { feeds.append(feed) }
        }
        let unknownAdapters = feedDecoder.unknownAdapters
        problems += feedDecoder.problems
        problems += Self.appendedParentProblems(feeds)
        problems += Self.viewNameProblems(feeds)
        problems += FeedDependencies.resolve(&feeds)
        if !problems.isEmpty {
            // A value can be checked twice (a template by the interpolation and by its option's type).
            var seen = Set<ConfigProblem>()
            // A value from the environment that may be a secret never appears in a message; one
            // used only where no secret is (an auth `type`) does, so the message says what is wrong.
            let secrets = Redactor(variables: interpolation.secretVariables)
            let redacted = problems.map { ConfigProblem(secrets.redact($0.message), at: $0.location) }
            var error = ConfigError(redacted.filter { seen.insert($0).inserted }.sorted(by: Self.order))
            error.unknownAdapters = unknownAdapters
            throw error
        }
        var config = FeedsConfig(
            file: path, directory: directory, storeLocation: store, concurrency: top.defaults?.concurrency ?? 4,
            feeds: feeds, redactor: redactor)
        if let lease = top.defaults?.lease { config.lease = lease }
        config.unknownAdapters = unknownAdapters
        return config
    }

    /// `path` made absolute against `directory` (a `file://` prefix is accepted).
    public static func resolve(_ path: String, in directory: String) -> String {
        var path = path
        if path.hasPrefix("file://") { path = String(path.dropFirst(7)) }
        if path.hasPrefix("/") { return path }
        return URL(fileURLWithPath: directory).appendingPathComponent(path).standardizedFileURL.path
    }

    private static func order(_ a: ConfigProblem, _ b: ConfigProblem) -> Bool {
        (a.location.line, a.location.column) < (b.location.line, b.location.column)
    }

    static func problem(for error: YamlError, file: String) -> ConfigProblem {
        switch error {
        case .scanner(let context, let problem, let mark, _), .parser(let context, let problem, let mark, _),
            .composer(let context, let problem, let mark, _):
            var message = "YAML syntax: \(problem)"
            if let context { message += " (\(context.text) at \(context.mark.line):\(context.mark.column))" }
            return ConfigProblem(message, at: SourceLocation(file: file, line: mark.line, column: mark.column))
        case .duplicatedKeysInMapping(let duplicates, let context):
            return ConfigProblem(
                "duplicate key \(duplicates.map { "'\($0)'" }.joined(separator: ", ")) in a mapping",
                at: SourceLocation(file: file, line: context.mark.line, column: context.mark.column))
        case .reader(let problem, let offset, _, _):
            return ConfigProblem(
                "unreadable text\(offset.map { " at byte \($0)" } ?? ""): \(problem)",
                at: SourceLocation(file: file, line: 1, column: 1))
        default:
            return ConfigProblem("YAML error: \(error)", at: SourceLocation(file: file, line: 1, column: 1))
        }
    }
}

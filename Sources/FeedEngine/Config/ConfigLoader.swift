import FeedKit
import Foundation
import Yams

/// Reads feeds.yaml: YAML syntax, `${VAR}`, templates, the known keys, each feed's adapter
/// options, and the consistency of entities across feeds.
///
/// Every problem is reported with `file:line:column`, all at once, so a user fixes a file in
/// one go.
public struct ConfigLoader: Sendable {
    /// Files larger than this are refused before parsing.
    public static let maximumFileBytes = 1 << 20

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

    /// The value ``UnsetVariables/placeholder`` gives unset variables.
    public static let placeholder = "***"

    public var registry: AdapterRegistry
    public var environment: [String: String]
    public var unsetVariables: UnsetVariables

    public init(
        registry: AdapterRegistry, environment: [String: String] = ProcessInfo.processInfo.environment,
        unsetVariables: UnsetVariables = .error
    ) {
        self.registry = registry
        self.environment = environment
        self.unsetVariables = unsetVariables
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
    /// - Throws: `YamlError` for a syntax error.
    static func compose(yaml text: String) throws -> Node? {
        try Yams.compose(yaml: text, .basic)
    }

    /// Loads and validates config text; `path` is used in messages, `directory` for relative paths.
    public func load(yaml text: String, path: String, directory: String) throws -> FeedsConfig {
        let start = SourceLocation(file: path, line: 1, column: 1)
        let root: Node
        do {
            guard let node = try Self.compose(yaml: text) else {
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
        var storeName = "feeds.sqlite"
        var storeNode = document
        var schemaName: String?
        var schemaNode: Node?
        var defaults: DefaultsBlock?
        var feedNodes: [Node] = []
        var feedsNode: Node?
        for (keyNode, value) in mapping {
            let key = keyNode.scalar?.string ?? ""
            switch key {
            case "store":
                if let name = value.scalar?.string, !name.isEmpty, !value.isNull {
                    storeName = name
                    storeNode = value
                } else {
                    problems.append(
                        ConfigProblem(
                            "'store' must be a file path or a postgres:// URL", at: location(value)))
                }
            case "schema":
                schemaNode = value
                if let name = value.scalar?.string, PostgresURL.isSchemaName(name) {
                    if let reserved = PostgresURL.reservedSchemaProblem(name) {
                        problems.append(ConfigProblem(reserved, at: location(value)))
                    } else {
                        schemaName = name
                    }
                } else {
                    problems.append(
                        ConfigProblem(
                            "'schema' must be a PostgreSQL schema name: lowercase letters, digits and _, starting with a letter or _, at most 63 characters",
                            at: location(value)))
                }
            case "defaults":
                // Every number out of range is reported, and left out so the rest is checked too.
                var block = value
                if let mapping = value.mapping {
                    let checked = RequestLimits.check(mapping, includesConcurrency: true, file: path)
                    problems += checked.problems + ScheduleSettings.problems(in: mapping, file: path)
                    block = .mapping(checked.mapping)
                }
                do {
                    defaults = try decoder.decode(
                        DefaultsBlock.self, from: block, codingPath: [AnyCodingKey(stringValue: "defaults")])
                } catch let error as ConfigError {
                    problems += error.problems
                }
            case "feeds":
                feedsNode = value
                if let sequence = value.sequence {
                    feedNodes = Array(sequence)
                } else if !value.isNull {
                    problems.append(ConfigProblem("'feeds' must be a list of feeds", at: location(value)))
                }
            default:
                var message = "unknown key '\(key)' at the top level"
                if let guess = Spelling.nearest(to: key, in: ["store", "schema", "defaults", "feeds"]) {
                    message += "; did you mean '\(guess)'?"
                } else {
                    message += "; expected store, schema, defaults or feeds"
                }
                problems.append(ConfigProblem(message, at: location(keyNode)))
            }
        }
        if feedsNode == nil { problems.append(ConfigProblem("missing key 'feeds'", at: location(document))) }
        problems += interpolation.placeheld.filter { $0.location == location(storeNode) }
        let isPostgres = PostgresURL.isPostgres(storeName)
        if isPostgres {
            if let problem = PostgresURL.problem(storeName) {
                problems.append(ConfigProblem(redactor.redact(problem), at: location(storeNode)))
            }
        } else if let problem = StorePathCheck.problem(Self.resolve(storeName, in: directory)) {
            problems.append(ConfigProblem(problem, at: location(storeNode)))
        }
        if let schemaNode, !isPostgres {
            problems.append(
                ConfigProblem(
                    "'schema' applies to a PostgreSQL store (store: postgres://...)", at: location(schemaNode)))
        }

        let basePolicy = defaults?.request.applied(to: FetchPolicy()) ?? FetchPolicy()
        var feeds: [FeedConfig] = []
        var firstSeen: [String: SourceLocation] = [:]
        var entities: [String: (schema: EntitySchema, feed: String)] = [:]
        for (index, node) in feedNodes.enumerated() {
            let path: [any CodingKey] = [AnyCodingKey(stringValue: "feeds"), AnyCodingKey(intValue: index)]
            guard let feedMapping = node.mapping else {
                problems.append(ConfigProblem("a feed must be a mapping with 'name' and 'adapter'", at: location(node)))
                continue
            }
            // A misspelt required key (`adapterr: fruit`) is reported as what it is, not as a
            // missing key; without it the feed cannot be checked further.
            let misspelt = Self.misspeltRequiredKeys(in: feedMapping, index: index, file: decoder.file)
            if !misspelt.isEmpty {
                problems += misspelt
                continue
            }
            let commonPairs = feedMapping.filter { CommonFeedKeys.names.contains($0.key.scalar?.string ?? "") }
            let optionPairs = feedMapping.filter { !CommonFeedKeys.names.contains($0.key.scalar?.string ?? "") }
            // The feed's own tag, not `.implicit`, which would build Yams's default resolver.
            let limits = RequestLimits.check(
                Node.Mapping(commonPairs.map { ($0.key, $0.value) }, feedMapping.tag, .any, feedMapping.mark),
                includesConcurrency: false, file: decoder.file)
            problems += limits.problems + ScheduleSettings.problems(in: feedMapping, file: decoder.file)
            let commonNode = Node.mapping(limits.mapping)
            let optionsNode = Node.mapping(
                Node.Mapping(optionPairs.map { ($0.key, $0.value) }, feedMapping.tag, .any, feedMapping.mark))
            let decodedCommon = decoder.decodeCollecting(CommonFeedKeys.self, from: commonNode, codingPath: path)
            problems += decodedCommon.problems
            guard let common = decodedCommon.value else { continue }
            let nameNode = feedMapping["name"] ?? node
            if let problem = FeedNameRule.problem(common.name, redactor: redactor) {
                problems.append(ConfigProblem(problem, at: location(nameNode)))
            }
            if let first = firstSeen[common.name] {
                problems.append(
                    ConfigProblem(
                        "duplicate feed name '\(common.name)' (first used at line \(first.line))",
                        at: location(nameNode)))
            } else {
                firstSeen[common.name] = location(nameNode)
            }
            guard let adapterType = registry.adapter(named: common.adapter) else {
                var message = "unknown adapter '\(common.adapter)'"
                if let guess = Spelling.nearest(to: common.adapter, in: registry.names) {
                    message += "; did you mean '\(guess)'?"
                }
                message += "; registered adapters: \(registry.names.joined(separator: ", "))"
                problems.append(ConfigProblem(message, at: location(feedMapping["adapter"] ?? node)))
                continue
            }
            let (misspeltCommon, adapterOptions) = Self.misspeltCommonKeys(
                in: optionsNode, adapter: adapterType.description, index: index, file: decoder.file)
            problems += misspeltCommon
            let setup = FeedSetup(name: common.name, configDirectory: directory)
            let made = adapterType.make(from: adapterOptions, decoder: decoder, codingPath: path, setup: setup)
            problems += made.problems
            guard let adapter = made.adapter, made.problems.isEmpty, decodedCommon.problems.isEmpty else { continue }
            for binding in adapter.entities {
                // SQLite table names ignore case: `Thing` and `thing` would be one table.
                let folded = binding.schema.name.lowercased()
                let at = location(feedMapping["entity"] ?? node)
                if isPostgres { problems += PostgresNames.problems(binding.schema).map { ConfigProblem($0, at: at) } }
                if let existing = entities[folded], existing.schema.name != binding.schema.name {
                    problems.append(
                        ConfigProblem(
                            "entity '\(binding.schema.name)' differs from entity '\(existing.schema.name)' of feed '\(existing.feed)' only in case; SQLite table names ignore case, so they would share one table",
                            at: at))
                } else if let existing = entities[folded], existing.schema.columns != binding.schema.columns {
                    problems.append(
                        ConfigProblem(
                            "entity '\(binding.schema.name)' is declared with other columns by feed '\(existing.feed)'",
                            at: location(node)))
                } else {
                    entities[folded] = (binding.schema, common.name)
                }
            }
            var policy = common.request.applied(to: basePolicy)
            switch (common.budget, common.rateLimit) {
            case (_?, _?):
                problems.append(
                    ConfigProblem(
                        "give either budget (a shared budget of defaults) or rate_limit (the feed's own), not both",
                        at: location(feedMapping["rate_limit"] ?? node)))
            case (let name?, nil):
                if let spec = defaults?.budgets?.entries.first(where: { $0.key == name })?.value {
                    policy.budget = spec.budget(named: name)
                } else {
                    let names = defaults?.budgets?.entries.map(\.key) ?? []
                    var message = "unknown budget '\(name)'"
                    if let guess = Spelling.nearest(to: name, in: names) { message += "; did you mean '\(guess)'?" }
                    message +=
                        names.isEmpty
                        ? "; declare it in defaults: { budgets: { \(name): { requests: 10, per: 1s } } }"
                        : "; budgets: \(names.joined(separator: ", "))"
                    problems.append(ConfigProblem(message, at: location(feedMapping["budget"] ?? node)))
                }
            case (nil, let spec?):
                policy.budget = spec.budget(named: "feed \(common.name)")
            case (nil, nil):
                break
            }
            feeds.append(
                FeedConfig(
                    name: common.name, adapterName: common.adapter, enabled: common.enabled ?? true,
                    location: location(node), policy: policy,
                    fixtures: common.fixtures.map { Self.resolve($0, in: directory) },
                    maxRejectRatio: common.maxRejectRatio ?? defaults?.maxRejectRatio ?? RejectLimit.defaultRatio,
                    schedule: common.schedule.schedule(over: defaults?.schedule), adapter: adapter))
        }
        problems += Self.appendedParentProblems(feeds)
        problems += Self.viewNameProblems(feeds)
        if !problems.isEmpty {
            // A value can be checked twice (a template by the interpolation and by its option's type).
            var seen = Set<ConfigProblem>()
            // A value from the environment (a secret) never appears in a message.
            let redacted = problems.map { ConfigProblem(redactor.redact($0.message), at: $0.location) }
            throw ConfigError(redacted.filter { seen.insert($0).inserted }.sorted(by: Self.order))
        }
        var config = FeedsConfig(
            file: path, directory: directory,
            storePath: isPostgres ? storeName : Self.resolve(storeName, in: directory),
            postgres: isPostgres ? PostgresStoreLocation(url: storeName, schema: schemaName ?? "feedwork") : nil,
            concurrency: defaults?.concurrency ?? 4, feeds: feeds, redactor: redactor)
        if let lease = defaults?.lease { config.lease = lease }
        return config
    }

    /// "unknown key 'adapterr'; did you mean 'adapter'?" for each required feed key (`name`,
    /// `adapter`) that is missing while a key that is not a common key looks like it.
    static func misspeltRequiredKeys(in feed: Node.Mapping, index: Int, file: String) -> [ConfigProblem] {
        var problems: [ConfigProblem] = []
        for required in ["name", "adapter"] where feed[required] == nil {
            for (keyNode, _) in feed {
                guard let key = keyNode.scalar?.string, !CommonFeedKeys.names.contains(key),
                    Spelling.nearest(to: key, in: [required]) != nil
                else { continue }
                problems.append(
                    ConfigProblem(
                        "unknown key '\(key)' in feeds[\(index)]; did you mean '\(required)'?",
                        at: SourceLocation(file: file, mark: keyNode.mark)))
            }
        }
        return problems
    }

    /// "unknown key 'retires' in feeds[1]; did you mean 'retries'?" for each key of a feed's
    /// adapter options that is no option of the adapter but looks like a common feed key; the
    /// adapter's own "expected one of" would list only its options. Returns the options without
    /// those keys.
    static func misspeltCommonKeys(in options: Node, adapter: AdapterDescription, index: Int, file: String)
        -> (problems: [ConfigProblem], options: Node)
    {
        guard let mapping = options.mapping else { return ([], options) }
        let optionNames = adapter.options.map(\.name)
        let common = CommonFeedKeys.names.sorted()
        var problems: [ConfigProblem] = []
        var kept: [(Node, Node)] = []
        for (keyNode, value) in mapping {
            if let key = keyNode.scalar?.string, !optionNames.contains(key),
                Spelling.nearest(to: key, in: optionNames) == nil,
                let guess = Spelling.nearest(to: key, in: common)
            {
                problems.append(
                    ConfigProblem(
                        "unknown key '\(key)' in feeds[\(index)]; did you mean '\(guess)'?",
                        at: SourceLocation(file: file, mark: keyNode.mark)))
            } else {
                kept.append((keyNode, value))
            }
        }
        return (problems, .mapping(Node.Mapping(kept, mapping.tag, mapping.style, mapping.mark)))
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

extension FeedAdapter {
    /// Decodes the options from `node` and makes the adapter, with every problem found.
    ///
    /// The adapter checks its options even when some of them could not be decoded (they are
    /// left out), so that its own problems are reported in the same pass; the adapter is only
    /// usable when there is no problem at all.
    static func make(from node: Node, decoder: NodeDecoder, codingPath: [any CodingKey], setup: FeedSetup)
        -> (adapter: (any FeedAdapter)?, problems: [ConfigProblem])
    {
        let decoded = decoder.decodeCollecting(Options.self, from: node, codingPath: codingPath)
        guard let options = decoded.value else { return (nil, decoded.problems) }
        func problem(_ error: OptionError) -> ConfigProblem {
            // The deepest node the path reaches: a key the YAML does not spell out (the `type`
            // of a short `name: type` field) points at its parent. A number is a list's index.
            var target = node
            for key in error.path {
                let codingKey = target.sequence != nil ? Int(key).map(AnyCodingKey.init(intValue:)) : nil
                guard let child = target.descendant(at: [codingKey ?? AnyCodingKey(stringValue: key)]) else { break }
                target = child
            }
            return ConfigProblem(
                "feed '\(setup.name)': \(error.message)", at: SourceLocation(file: decoder.file, mark: target.mark))
        }
        do {
            return (try Self(options: options, feed: setup), decoded.problems)
        } catch let error as OptionError {
            return (nil, decoded.problems + [problem(error)])
        } catch let error as OptionError.List {
            return (nil, decoded.problems + error.errors.map(problem))
        } catch let error as ConfigError {
            return (nil, decoded.problems + error.problems)
        } catch {
            let problem = ConfigProblem(
                "feed '\(setup.name)': \(error)", at: SourceLocation(file: decoder.file, mark: node.mark))
            return (nil, decoded.problems + [problem])
        }
    }
}

import FeedKit
import FeedStore
import FeedStoreDrivers
import Yams

extension ConfigLoader {
    /// Reads the feeds of `feeds:` one by one: the common keys, the adapter and its options,
    /// and what feeds must agree on (unique names, one set of columns per entity, budgets the
    /// defaults declare). Every problem is kept, at its `file:line:column`, in ``problems``.
    struct FeedDecoder {
        let registry: AdapterRegistry
        let decoder: NodeDecoder
        /// The config's folder, for relative paths.
        let directory: String
        /// The config's secrets, kept out of feed names' problems.
        let redactor: Redactor
        let defaults: DefaultsBlock?
        /// The config's store, whose driver checks the names an entity's tables would take.
        let store: StoreLocation
        /// The defaults' fetch policy, which each feed's own settings change.
        private let basePolicy: FetchPolicy
        /// Where each feed name was first used.
        private var firstSeen: [String: SourceLocation] = [:]
        /// The entities declared so far, by their lowercased names, and the feed declaring each.
        private var entities: [String: (schema: EntitySchema, feed: String)] = [:]
        private(set) var problems: [ConfigProblem] = []
        /// The feeds naming an adapter this program does not register.
        private(set) var unknownAdapters: [UnknownAdapterUse] = []
        /// Whether such a feed is only left out (``ConfigLoader/UnknownAdapters/skipFeed``), not
        /// a problem.
        let skipsUnknownAdapters: Bool

        init(
            registry: AdapterRegistry, decoder: NodeDecoder, directory: String, redactor: Redactor,
            defaults: DefaultsBlock?, store: StoreLocation, skipsUnknownAdapters: Bool = false
        ) {
            self.skipsUnknownAdapters = skipsUnknownAdapters
            self.registry = registry
            self.decoder = decoder
            self.directory = directory
            self.redactor = redactor
            self.defaults = defaults
            self.store = store
            basePolicy = defaults?.request.applied(to: FetchPolicy()) ?? FetchPolicy()
        }

        private func location(_ node: Node) -> SourceLocation { SourceLocation(file: decoder.file, mark: node.mark) }

        /// The feed at `node`, the `index`th of `feeds:`, or `nil` when it has a problem (each one
        /// is added to ``problems``).
        mutating func decode(_ node: Node, index: Int) -> FeedConfig? {
            let path: [any CodingKey] = [AnyCodingKey(stringValue: "feeds"), AnyCodingKey(intValue: index)]
            guard let feedMapping = node.mapping else {
                problems.append(ConfigProblem("a feed must be a mapping with 'name' and 'adapter'", at: location(node)))
                return nil
            }
            // A misspelt required key (`adapterr: fruit`) is reported as what it is, not as a
            // missing key; without it the feed cannot be checked further.
            let misspelt = ConfigLoader.misspeltRequiredKeys(in: feedMapping, index: index, file: decoder.file)
            if !misspelt.isEmpty {
                problems += misspelt
                return nil
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
            guard let common = decodedCommon.value else { return nil }
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
                let at = location(feedMapping["adapter"] ?? node)
                if !skipsUnknownAdapters { problems.append(ConfigProblem(message, at: at)) }
                unknownAdapters.append(UnknownAdapterUse(feed: common.name, adapter: common.adapter, location: at))
                return nil
            }
            let (misspeltCommon, adapterOptions) = ConfigLoader.misspeltCommonKeys(
                in: optionsNode, adapter: adapterType.description, index: index, file: decoder.file)
            problems += misspeltCommon
            let contract = SchemaContractSpec.contract(feed: common.schema, defaults: defaults?.schema)
            let setup = FeedSetup(name: common.name, configDirectory: directory, schemaContract: contract)
            let made = adapterType.make(from: adapterOptions, decoder: decoder, codingPath: path, setup: setup)
            problems += made.problems
            guard let adapter = made.adapter, made.problems.isEmpty, decodedCommon.problems.isEmpty else { return nil }
            checkEntities(of: adapter, feed: common.name, node: node, mapping: feedMapping)
            let policy = fetchPolicy(for: common, node: node, mapping: feedMapping)
            var feed = FeedConfig(
                name: common.name, adapterName: common.adapter, enabled: common.enabled ?? true,
                location: location(node), policy: policy,
                fixtures: common.fixtures.map { ConfigLoader.resolve($0, in: directory) },
                maxRejectRatio: common.maxRejectRatio ?? defaults?.maxRejectRatio ?? RejectLimit.defaultRatio,
                schedule: common.schedule.schedule(over: defaults?.schedule, feed: common.name), adapter: adapter,
                namesRemoteURL: RemoteURLHint.namesRemoteURL(node), schemaContract: contract)
            feed.declaredDependencies = declaredDependencies(common, adapter: adapter, node: node, mapping: feedMapping)
            feed.maxDeleteRatio = common.maxDeleteRatio ?? defaults?.maxDeleteRatio ?? DeleteLimit.defaultRatio
            feed.allowsEmpty = common.allowEmpty ?? false
            return feed
        }

        /// The feeds named in `depends_on:` and the parent entities of the adapter, each with the
        /// place it is written.
        private func declaredDependencies(
            _ common: CommonFeedKeys, adapter: any FeedAdapter, node: Node, mapping: Node.Mapping
        ) -> [FeedDependencies.Declared] {
            let listed = mapping["depends_on"]
            let named = (common.dependsOn ?? []).enumerated().map { index, name in
                let at = listed?.sequence.flatMap { index < $0.count ? $0[index] : nil } ?? listed ?? node
                return FeedDependencies.Declared(on: .feed(name), at: location(at))
            }
            let parents = adapter.parentEntities.map { parent in
                let at = node.descendant(at: parent.option.map { AnyCodingKey(stringValue: $0) }) ?? node
                return FeedDependencies.Declared(on: .entity(parent.entity), at: location(at))
            }
            return named + parents
        }

        /// Checks `adapter`'s entities against those of the feeds before it (one table for names
        /// that differ only in case, the same columns for one entity) and the store's name rules.
        private mutating func checkEntities(
            of adapter: any FeedAdapter, feed: String, node: Node, mapping: Node.Mapping
        ) {
            for binding in adapter.entities {
                // SQLite table names ignore case: `Thing` and `thing` would be one table.
                let folded = binding.schema.name.lowercased()
                let at = location(mapping["entity"] ?? node)
                problems += StoreFactory.nameProblems(binding.schema, in: store).map { ConfigProblem($0, at: at) }
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
                    entities[folded] = (binding.schema, feed)
                }
            }
        }

        /// The feed's fetch policy: the defaults' with its own request settings, and its budget
        /// (a shared budget of `defaults:` by name, or its own `rate_limit`).
        private mutating func fetchPolicy(for common: CommonFeedKeys, node: Node, mapping: Node.Mapping) -> FetchPolicy
        {
            var policy = common.request.applied(to: basePolicy)
            switch (common.budget, common.rateLimit) {
            case (_?, _?):
                problems.append(
                    ConfigProblem(
                        "give either budget (a shared budget of defaults) or rate_limit (the feed's own), not both",
                        at: location(mapping["rate_limit"] ?? node)))
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
                    problems.append(ConfigProblem(message, at: location(mapping["budget"] ?? node)))
                }
            case (nil, let spec?):
                policy.budget = spec.budget(named: "feed \(common.name)")
            case (nil, nil):
                break
            }
            return policy
        }

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

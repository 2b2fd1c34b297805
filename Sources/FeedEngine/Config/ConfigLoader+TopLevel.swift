import FeedKit
import FeedStore
import FeedStoreDrivers
import Yams

extension ConfigLoader {
    /// The top level of feeds.yaml: `store`, `schema`, `defaults` and `feeds`, each checked,
    /// with every problem reported at its `file:line:column`. The feeds themselves are read by
    /// ``FeedDecoder``.
    struct TopLevel {
        var storeName = "feeds.sqlite"
        /// Where `store:` is (the document when it is not given).
        var storeNode: Node
        var schemaName: String?
        var schemaNode: Node?
        var defaults: DefaultsBlock?
        var feedNodes: [Node] = []
        var feedsNode: Node?

        /// Reads the top-level keys of `document`, adding every problem to `problems`.
        ///
        /// - Throws: an error of the YAML decoder that is no ``ConfigError``.
        init(document: Node, mapping: Node.Mapping, decoder: NodeDecoder, problems: inout [ConfigProblem]) throws {
            let path = decoder.file
            func location(_ node: Node) -> SourceLocation { SourceLocation(file: path, mark: node.mark) }
            storeNode = document
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
                    // Checked with the store it belongs to, by `problems(of:redactor:decoder:)`.
                    schemaName = value.scalar?.string ?? ""
                    schemaNode = value
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
        }

        /// The store `store:` and `schema:` name, a file's path made absolute against `directory`.
        func storeLocation(directory: String) -> StoreLocation {
            let location = StoreLocation(storeName, schema: schemaName)
            guard location.filePath != nil else { return location }
            return StoreLocation(ConfigLoader.resolve(storeName, in: directory), schema: schemaName)
        }

        /// The problems of `store:` and `schema:`, which name `store` (a bad URL, its secrets
        /// redacted, a path that cannot hold a store, a schema the store cannot have), as the
        /// store's driver finds them, each at the key it is about.
        func problems(of store: StoreLocation, redactor: Redactor, decoder: NodeDecoder) -> [ConfigProblem] {
            StoreFactory.problems(of: store).map { problem in
                let node = problem.part == .schema ? schemaNode ?? storeNode : storeNode
                let at = SourceLocation(file: decoder.file, mark: node.mark)
                return ConfigProblem(redactor.redact(problem.message), at: at)
            }
        }
    }
}

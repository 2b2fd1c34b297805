import FeedKit

/// Which feeds must end their pass before another's starts, when both run in one
/// `feedwork run` or worker: the feeds a feed names in `depends_on:`, and those writing an
/// entity its adapter reads as parents (`for_each: { entity: order }` depends on the feeds that
/// write `order`). Cycles cannot be run in any order, so the config refuses them.
enum FeedDependencies {
    /// One dependency as the config gives it.
    struct Declared: Sendable, Hashable {
        enum Target: Sendable, Hashable {
            /// A feed named in `depends_on:`.
            case feed(String)
            /// An entity the adapter reads as parents: the feeds writing it.
            case entity(String)
        }

        var on: Target
        /// Where it is written: the name in `depends_on:`, or the adapter's option.
        var at: SourceLocation
    }

    /// Sets each feed's ``FeedConfig/dependsOn`` from its declared dependencies.
    ///
    /// - Returns: a problem for each unknown or own name in `depends_on:` and each parent entity
    ///   the feed writes itself, and one for each cycle, at the dependency of its first feed
    ///   (in config order) that closes it.
    static func resolve(_ feeds: inout [FeedConfig]) -> [ConfigProblem] {
        let names = feeds.map(\.name)
        var problems: [ConfigProblem] = []
        var edges: [String: [(feed: String, at: SourceLocation)]] = [:]
        for index in feeds.indices {
            let feed = feeds[index]
            var targets: [(feed: String, at: SourceLocation)] = []
            for declared in feed.declaredDependencies {
                switch declared.on {
                case .feed(let name):
                    if name == feed.name {
                        problems.append(ConfigProblem("feed '\(feed.name)' cannot depend on itself", at: declared.at))
                    } else if names.contains(name) {
                        targets.append((name, declared.at))
                    } else {
                        var message = "depends_on names no feed '\(name)'"
                        if let guess = Spelling.nearest(to: name, in: names) { message += "; did you mean '\(guess)'?" }
                        problems.append(ConfigProblem(message, at: declared.at))
                    }
                case .entity(let entity):
                    if feed.adapter.entities.contains(where: { $0.schema.name == entity }) {
                        problems.append(
                            ConfigProblem(
                                "feed '\(feed.name)' reads its own entity '\(entity)' as parents, a cycle: each pass would follow the rows its last pass wrote; follow another feed's entity, or request a child per record with entities: and a url",
                                at: declared.at))
                        continue
                    }
                    let writers = feeds.filter { other in
                        other.name != feed.name && other.adapter.entities.contains { $0.schema.name == entity }
                    }
                    targets += writers.map { ($0.name, declared.at) }
                }
            }
            var seen = Set<String>()
            targets = targets.filter { seen.insert($0.feed).inserted }
            edges[feed.name] = targets
            feeds[index].dependsOn = targets.map(\.feed)
        }
        return problems + cycleProblems(names: names, edges: edges)
    }

    /// One problem per cycle of `edges`, found by a depth-first walk from each feed in order.
    private static func cycleProblems(names: [String], edges: [String: [(feed: String, at: SourceLocation)]])
        -> [ConfigProblem]
    {
        enum Mark { case visiting, done }
        var marks: [String: Mark] = [:]
        var path: [String] = []
        var problems: [ConfigProblem] = []
        func visit(_ name: String) {
            marks[name] = .visiting
            path.append(name)
            for edge in edges[name] ?? [] {
                switch marks[edge.feed] {
                case .visiting?:
                    let cycle = path.drop { $0 != edge.feed } + [edge.feed]
                    problems.append(
                        ConfigProblem(
                            "feeds depend on each other in a cycle (\(cycle.joined(separator: " -> "))), so none can run first; remove one of these dependencies (depends_on:, or for_each: over an entity the other feed writes)",
                            at: edge.at))
                case .done?:
                    continue
                case nil:
                    visit(edge.feed)
                }
            }
            path.removeLast()
            marks[name] = .done
        }
        for name in names where marks[name] == nil { visit(name) }
        return problems
    }
}

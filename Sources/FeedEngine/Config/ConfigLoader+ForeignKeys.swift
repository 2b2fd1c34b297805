import FeedKit
import FeedStore

extension ConfigLoader {
    /// A feed writing in `append` mode an entity that an enforced relation of the config points
    /// at, at the feed: the entity's keys would repeat, and a foreign key needs them unique
    /// (``ForeignKey``). The store refuses such a pass too, for relations that other configs
    /// or entities declared during a pass bring.
    static func appendedParentProblems(_ feeds: [FeedConfig]) -> [ConfigProblem] {
        let bindings = feeds.flatMap { $0.adapter.entities }
        let schemas = Dictionary(bindings.map { ($0.schema.name, $0.schema) }, uniquingKeysWith: { first, _ in first })
        return feeds.flatMap { feed in
            feed.adapter.entities.filter { $0.mode == .append }.compactMap { binding in
                ForeignKey.historyProblem(binding.schema.name, schemas: schemas).map {
                    ConfigProblem("feed '\(feed.name)': \($0)", at: feed.location)
                }
            }
        }
    }
}

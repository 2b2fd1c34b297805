import FeedKit
import FeedStore

/// An entity as a config declares it: its schema (an adapter's, or one declared in YAML for the
/// `json` adapter), the feeds that write it, and the columns the store adds to its tables.
public struct DeclaredEntity: Sendable {
    /// A feed that writes the entity, and how (`write:`).
    public struct Writer: Sendable, Hashable {
        public var feed: String
        public var mode: WriteMode
        public var enabled: Bool
    }

    public var schema: EntitySchema
    /// In the order of feeds.yaml.
    public var writers: [Writer]
    /// The columns every entity table has before the schema's own (`_feed`, `_key`, ...).
    public static var systemColumns: [String] { EntityColumns.common }
    /// The columns every child table (`<entity>__<list>`) has before the list item's own.
    public static var childSystemColumns: [String] { EntityColumns.childCommon }
}

extension FeedsConfig {
    /// Every entity the config's feeds write, disabled feeds included, in the order feeds.yaml
    /// first names them. The loader has already checked that feeds sharing an entity declare
    /// the same columns.
    public var declaredEntities: [DeclaredEntity] { entities { $0.entities } }

    /// The entities feeds declare during their passes (the json adapter's with `extra:
    /// columns`), with the columns known before a pass, and not among ``declaredEntities``.
    public var entitiesDeclaredDuringPass: [DeclaredEntity] {
        let declared = Set(declaredEntities.map(\.schema.name))
        return entities { $0.entitiesDeclaredDuringPass }.filter { !declared.contains($0.schema.name) }
    }

    /// The entities of `bindings` of every feed, with their writers, in the order of feeds.yaml.
    private func entities(_ bindings: (any FeedAdapter) -> [EntityBinding]) -> [DeclaredEntity] {
        var entities: [DeclaredEntity] = []
        var index: [String: Int] = [:]
        for feed in feeds {
            for binding in bindings(feed.adapter) {
                let writer = DeclaredEntity.Writer(feed: feed.name, mode: binding.mode, enabled: feed.enabled)
                if let position = index[binding.schema.name] {
                    entities[position].writers.append(writer)
                } else {
                    index[binding.schema.name] = entities.count
                    entities.append(DeclaredEntity(schema: binding.schema, writers: [writer]))
                }
            }
        }
        return entities
    }
}

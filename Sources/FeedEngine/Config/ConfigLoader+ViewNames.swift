import FeedKit
import FeedStore

extension ConfigLoader {
    /// Entities that would take the place of another's view: an entity named `thing_view`
    /// beside an entity `thing`, whose view (``EntityView``) has that name. Names compare
    /// ignoring case, as SQLite's do. Each problem is at the feed declaring the later entity.
    static func viewNameProblems(_ feeds: [FeedConfig]) -> [ConfigProblem] {
        var declared: [(entity: String, feed: String)] = []
        var problems: [ConfigProblem] = []
        for feed in feeds {
            for binding in feed.adapter.entities {
                let name = binding.schema.name
                if let other = declared.first(where: { EntityView.name($0.entity).lowercased() == name.lowercased() }) {
                    problems.append(
                        ConfigProblem(
                            "feed '\(feed.name)': entity '\(name)' has the name of the view of entity '\(other.entity)' of feed '\(other.feed)'; use another name",
                            at: feed.location))
                } else if let other = declared.first(where: {
                    $0.entity.lowercased() == EntityView.name(name).lowercased()
                }) {
                    problems.append(
                        ConfigProblem(
                            "feed '\(feed.name)': the view of entity '\(name)' would have the name of entity '\(other.entity)' of feed '\(other.feed)'; use another name for one of them",
                            at: feed.location))
                }
                declared.append((name, feed.name))
            }
        }
        return problems
    }
}

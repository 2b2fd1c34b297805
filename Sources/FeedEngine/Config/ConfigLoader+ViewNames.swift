import FeedKit
import FeedStore

extension ConfigLoader {
    /// Entities that would take the place of another's view: an entity named `thing_view`
    /// beside an entity `thing`, whose view (``EntityView``) has that name. Names compare
    /// ignoring case, as SQLite's do. Each problem is at the feed declaring the later entity.
    static func viewNameProblems(_ feeds: [FeedConfig]) -> [ConfigProblem] {
        // The first entity declared under each name and each view name (lowercased, as the
        // stores compare them): looked up, not searched, so 10,000 feeds load in linear time.
        var byName: [String: (entity: String, feed: String)] = [:]
        var byView: [String: (entity: String, feed: String)] = [:]
        var problems: [ConfigProblem] = []
        for feed in feeds {
            for binding in feed.adapter.entities {
                let name = binding.schema.name
                let (lowered, view) = (name.lowercased(), EntityView.name(name).lowercased())
                if let other = byView[lowered] {
                    problems.append(
                        ConfigProblem(
                            "feed '\(feed.name)': entity '\(name)' has the name of the view of entity '\(other.entity)' of feed '\(other.feed)'; use another name",
                            at: feed.location))
                } else if let other = byName[view] {
                    problems.append(
                        ConfigProblem(
                            "feed '\(feed.name)': the view of entity '\(name)' would have the name of entity '\(other.entity)' of feed '\(other.feed)'; use another name for one of them",
                            at: feed.location))
                }
                if byName[lowered] == nil { byName[lowered] = (name, feed.name) }
                if byView[view] == nil { byView[view] = (name, feed.name) }
            }
        }
        return problems
    }
}

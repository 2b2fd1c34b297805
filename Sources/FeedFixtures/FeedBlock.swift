import FeedEngine
import FeedKit
import Foundation
import Yams

/// One feed's block of a feeds.yaml as written (`${VAR}` kept, not their values), turned into
/// the `feed.yaml` of a fixture suite.
enum FeedBlock {
    /// A config text with only the feed `name` of `configText`, its `fixtures:` key left out
    /// (the suite's folder is its fixtures). A `max_reject_ratio` or `max_delete_ratio` the feed
    /// takes from `defaults:` is copied into its block, so the replay judges its rejects and
    /// deletions as the recording did.
    ///
    /// - Throws: ``FixtureError`` when the text has no such feed.
    static func suiteConfig(feed name: String, from configText: String, header: String) throws(FixtureError) -> String {
        let root: Node?
        do {
            root = try Yams.compose(yaml: configText)
        } catch {
            throw FixtureError("cannot read the config: \(error)")
        }
        guard let feeds = root?.mapping?["feeds"]?.sequence,
            let feed = feeds.first(where: { $0.mapping?["name"]?.scalar?.string == name }),
            let mapping = feed.mapping
        else {
            throw FixtureError("the config has no feed named '\(name)'")
        }
        var kept = mapping.filter { $0.key.scalar?.string != "fixtures" }.map { ($0.key, $0.value) }
        for ratioKey in ["max_reject_ratio", "max_delete_ratio"] {
            if mapping[ratioKey] == nil, let ratio = root?.mapping?["defaults"]?.mapping?[ratioKey] {
                kept.append((Node(ratioKey), ratio))
            }
        }
        let block = Node.mapping(Node.Mapping(kept))
        let document = Node.mapping(Node.Mapping([(Node("feeds"), Node.sequence(Node.Sequence([block])))]))
        let yaml: String
        do {
            yaml = try Yams.serialize(node: document, indent: 2, width: 120, allowUnicode: true)
        } catch {
            throw FixtureError("cannot write the feed's YAML: \(error)")
        }
        return header.split(separator: "\n", omittingEmptySubsequences: false).map { "# \($0)" }.joined(separator: "\n")
            + "\n" + yaml
    }
}

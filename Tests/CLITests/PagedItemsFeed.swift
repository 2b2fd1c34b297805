import FeedTestSupport
import Foundation

/// A `json` feed of `item` rows keyed by `id`, read from pages `{"items":[{"id":1}],
/// "next":"/items?page=2"}` that link to each other: the feed the progress, offline and
/// interrupt tests run against a ``LoopbackServer``.
enum PagedItemsFeed {
    /// A server of ten such pages at `/items`, one item each, every page answered after `delay`.
    static func slowServer(delay: Duration) throws -> LoopbackServer {
        try LoopbackServer { request in
            let page = Int(request.query("page") ?? "1") ?? 1
            let next = page < 10 ? #","next":"/items?page=\#(page + 1)""# : ""
            var reply = LoopbackReply.json(#"{"items":[{"id":\#(page)}]\#(next)}"#)
            reply.delay = delay
            return reply
        }
    }

    /// The feed as an item of feeds.yaml's `feeds:` list, indented for it.
    static func yaml(name: String, url: String) -> String {
        """
          - name: \(name)
            adapter: json
            url: \(url)
            pagination: { type: next_url, next_path: next }
            records: items
            entity: item
            key: id
            fields: { id: int }
        """
    }
}

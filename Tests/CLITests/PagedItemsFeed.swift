/// A `json` feed of `item` rows keyed by `id`, read from pages `{"items":[{"id":1}],
/// "next":"/items?page=2"}` that link to each other: the feed the progress, offline and
/// interrupt tests run against a ``LoopbackServer``.
enum PagedItemsFeed {
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

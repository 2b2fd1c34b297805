import FeedKit

extension JSONAdapter {
    /// `for_each:`: the feed's requests are made once for each row of a parent entity (the
    /// rows another feed stored), with the row's fields in the url, params, headers and body
    /// as `{{parent.FIELD}}`:
    ///
    /// ```yaml
    /// url: https://api.example.com/orders/{{parent.id}}/lines
    /// for_each:
    ///   entity: order
    ///   carry: { order_id: id }
    /// ```
    public struct ForEachSpec: Decodable, Sendable {
        /// The parent entity, as the store holds it when the pass starts.
        public var entity: String
        /// Members added to each child record before it is mapped, from the parent's fields
        /// (`order_id: id`): how child rows carry their parent's key. Each must be a field.
        public var carry: OrderedMapping<String>?
        /// Conditions on the parent rows (`export --where` grammar); all must hold.
        var filter: OneOrMany?
        /// How many parents' requests run at once (1 to 16; default 1).
        public var parallel: Int?
        /// Follow only the parents written (new or changed) since this feed's last pass, by
        /// their `_run`; `--full-refresh` follows all of them again.
        public var incremental: Bool?
        /// What a parent whose request answers 404 becomes: `reject` (the default) or `note`.
        public var onNotFound: String?

        enum CodingKeys: String, CodingKey {
            case entity, carry, parallel, incremental
            case filter = "where"
            case onNotFound = "on_not_found"
        }
    }
}

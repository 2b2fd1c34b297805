import FeedKit

extension JSONAdapter {
    /// The `incremental:` block: read only what changed since the last pass.
    ///
    /// ```yaml
    /// incremental:
    ///   cursor_path: updated_at          # a declared field: timestamp, int or string
    ///   param: since                     # or {{cursor}} in url or body
    ///   start: "{{today-30d|iso}}"       # what the first pass sends
    ///   lag: 1h                          # timestamps: send the cursor minus this
    ///   end: "{{now|iso}}"               # an optional window end, sent as end_param
    ///   end_param: until
    ///   order: desc                      # the API sorts newest first: stop paging past the cursor
    /// ```
    public struct IncrementalSpec: Decodable, Sendable {
        /// The declared field (its name, or its `path`) whose greatest value is the cursor.
        public var cursorPath: String
        /// The query parameter the cursor is sent in; without it, `{{cursor}}` in `url` or `body`.
        public var param: String?
        /// What the first pass (and a `--full-refresh` pass) sends; nothing when absent.
        public var start: TemplatedString?
        /// How far before the stored cursor a timestamp cursor is sent, to re-read late writes.
        public var lag: FeedDuration?
        /// The window's end, sent in `end_param` on every pass.
        public var end: TemplatedString?
        public var endParam: String?
        /// `asc` (the default) or `desc`: with `desc`, paging stops after the first page holding
        /// a record older than the cursor sent.
        public var order: String?
        /// How a timestamp cursor is sent: `iso` (the default, `2024-01-31T10:00:00Z`), `unix`
        /// or `unix_ms`.
        public var format: String?

        enum CodingKeys: String, CodingKey {
            case param, start, lag, end, order, format
            case cursorPath = "cursor_path"
            case endParam = "end_param"
        }
    }
}

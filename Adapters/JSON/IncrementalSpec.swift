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
    ///   window: 7d                       # timestamps: read [cursor, end) in windows of 7 days
    ///   windows_per_pass: 4              # commit 4 windows a pass (1 by default)
    ///   window_end: inclusive            # the API reads a window's end inclusively
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
        /// How a timestamp cursor is sent: `iso` (`2024-01-31T10:00:00Z`), `unix`, `unix_ms` or a
        /// pattern (`yyyy-MM-dd HH:mm:ss`); by default the cursor field's own `format`, else `iso`.
        public var format: String?
        /// Reads `[cursor, end)` (or `[start, end)`) in windows this long, each sent as
        /// `{{window.start}}` and `{{window.end}}` (and in `param` and `end_param`), for APIs
        /// that cap a query's range; after each window the cursor is the window's end.
        public var window: FeedDuration?
        /// The most windows one pass reads and commits (1 by default): a long backfill commits
        /// that many windows a pass, the passes following one another within one run, and an
        /// interrupted one resumes at the first window not committed.
        public var windowsPerPass: Int?
        /// How the API reads a window's end: `exclusive` (the default: records before it, so
        /// the next window starts at it) or `inclusive` (records up to it too: each window's
        /// end is sent one unit of the cursor's format, such as 1 s or 1 day, before the next
        /// window's start, so no record on a boundary is read twice).
        public var windowEnd: String?

        enum CodingKeys: String, CodingKey {
            case param, start, lag, end, order, format, window
            case cursorPath = "cursor_path"
            case endParam = "end_param"
            case windowsPerPass = "windows_per_pass"
            case windowEnd = "window_end"
        }
    }
}

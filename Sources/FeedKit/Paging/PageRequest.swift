/// One page to fetch: the feed's URL with page parameters, or a link a response gave.
///
/// Made by a ``Paginator``: ``Paginator/first`` for the first page, then
/// ``Paginator/next(after:facts:url:)`` from what each page said.
public struct PageRequest: Sendable, Hashable {
    /// A next link (absolute, or a path), or `nil` for the feed's own URL and parameters.
    public var link: String?
    /// Page parameters added to the query (offset and limit, page number, cursor), in order.
    public var query: [QueryItem] = []
    /// The offset or page number of this page (0 for link and cursor pages).
    public var position = 0
    /// The cursor this page is asked with (`cursor` pagination; `nil` on the first page).
    public var cursor: String?

    /// A page; a ``Paginator`` makes them, an adapter rarely does.
    public init(link: String? = nil, query: [QueryItem] = [], position: Int = 0, cursor: String? = nil) {
        self.link = link
        self.query = query
        self.position = position
        self.cursor = cursor
    }

    /// One query parameter of a page, not yet percent-encoded.
    public struct QueryItem: Sendable, Hashable {
        /// The parameter's name.
        public var name: String
        /// The parameter's value (a number or a cursor), percent-encoded when it is sent.
        public var value: String

        /// The parameter `name=value`.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// ``query`` as pairs, for ``URLQuery/appending(_:to:)``.
    public var queryPairs: [(String, String)] { query.map { ($0.name, $0.value) } }
}

/// What a response says about the pages after it: the adapter reads these from each page (its
/// body, its headers) and the ``Paginator`` decides from them which page comes next.
public struct PageFacts: Sendable, Equatable {
    /// The records the page held (rejected ones included): 0 ends offset and page walks.
    public var recordCount: Int
    /// The total number of records, when the response gives it.
    public var total: Int?
    /// The total number of pages, when the response gives it.
    public var totalPages: Int?
    /// The next cursor (`cursor`) or the next link (`next_url`, `link_header`); `nil` on the last page.
    public var continuation: String?
    /// Whether more pages follow, when the response says: `false` on the last page.
    public var hasMore: Bool?

    /// What a page said; only `recordCount` is always known.
    public init(
        recordCount: Int, total: Int? = nil, totalPages: Int? = nil, continuation: String? = nil,
        hasMore: Bool? = nil
    ) {
        self.recordCount = recordCount
        self.total = total
        self.totalPages = totalPages
        self.continuation = continuation
        self.hasMore = hasMore
    }
}

/// Why a walk over pages ended, as a pass reports it: every walk ends for one of these
/// reasons, or fails (``PageStep/stuck(_:)``) when its pages do not say it is over.
///
/// The raw values are the codes a report shows (`pagination: 3 page(s); ended: no next page
/// (no_next_page)`), stable for tools that read `feedwork run --json`.
public enum WalkEnd: String, Sendable, CaseIterable, Comparable {
    /// `pagination: none`: the one page is the walk.
    case onePage = "one_page"
    /// The page gave no next cursor or link.
    case noNextPage = "no_next_page"
    /// The page's `has_more` said no more pages follow.
    case hasMoreFalse = "has_more_false"
    /// The records or pages the responses' total gives were all asked for.
    case totalReached = "total_reached"
    /// A page held fewer records than the page size (`stop_on_short_page`).
    case shortPage = "short_page"
    /// A page held no records (`offset` and `page`, whose walks end there).
    case emptyPage = "empty_page"
    /// The walk reached `max_pages` with more pages to fetch.
    case maxPages = "max_pages"
    /// A page reached records older than the incremental cursor (`order: desc`).
    case olderThanCursor = "older_than_cursor"
    /// The walk stopped short of its end, which the feed accepts (`allow_incomplete`).
    case incomplete

    /// The reason in words, for a report's note.
    public var phrase: String {
        switch self {
        case .onePage: "one page"
        case .noNextPage: "no next page"
        case .hasMoreFalse: "has_more false"
        case .totalReached: "total reached"
        case .shortPage: "short page"
        case .emptyPage: "empty page"
        case .maxPages: "max_pages reached"
        case .olderThanCursor: "records older than the cursor (order: desc)"
        case .incomplete: "stopped early (allow_incomplete)"
        }
    }

    /// Orders the ends as the cases are declared, so a summary of several walks lists them alike each time.
    public static func < (lhs: WalkEnd, rhs: WalkEnd) -> Bool {
        allCases.firstIndex(of: lhs) ?? 0 < allCases.firstIndex(of: rhs) ?? 0
    }
}

/// What follows a page in a walk (``Paginator/step(after:facts:url:)``).
public enum PageStep: Sendable, Equatable {
    /// The next page to fetch.
    case next(PageRequest)
    /// The page was the last one, for the reason given.
    case end(WalkEnd)
    /// The walk cannot go on, yet the page does not say it is the last (an empty page with a
    /// next cursor, `has_more` true without a way to the next page): a failed pass, or a note
    /// when the feed allows an incomplete pass (``Paginator/allowsIncomplete``). The text says
    /// why, without the page's number.
    case stuck(String)
}

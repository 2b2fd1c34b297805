import FeedKit
import Foundation

/// Where each page of an offset/limit list is read from, paged by FeedKit's ``Paginator``.
///
/// A location with `{offset}` (and optionally `{limit}`) is a template: the numbers are put in
/// its place, which works for files (`deliveries-{offset}.json`) and URLs alike. An http(s) URL
/// without `{offset}` gets `offset` and `limit` query parameters instead.
struct DeliveryPaging: Sendable {
    let location: String
    let limit: Int
    /// Offset pages from 0, `limit` records a page, until an empty page or `max_pages`.
    let paginator: Paginator

    /// Checks that `location` can address pages.
    ///
    /// - Throws: ``OptionError`` at `url` for a file path without `{offset}`, which would read the
    ///   same file for every page, or for `{limit}` without `{offset}`.
    init(location: String, limit: Int, maxPages: Int) throws {
        guard FetchRequest.isRemote(location) || location.contains("{offset}") else {
            throw OptionError(
                "a file source of deliveries needs '{offset}' in its path, e.g. deliveries-{offset}.json",
                at: ["url"])
        }
        guard location.contains("{offset}") || !location.contains("{limit}") else {
            throw OptionError(
                "url has '{limit}' but no '{offset}'; use both, or neither for an http(s) URL", at: ["url"])
        }
        self.location = location
        self.limit = limit
        var paginator = Paginator(kind: .offset(limit: limit, limitParam: "limit", offsetParam: "offset", start: 0))
        paginator.maxPages = maxPages
        // The API's offsets, and the fixture files named by them, step by the limit.
        paginator.offsetStep = .limit
        self.paginator = paginator
    }

    var maxPages: Int { paginator.maxPages }

    /// Whether pages are local files, where a missing file is the empty last page.
    var isFileSource: Bool { !FetchRequest.isRemote(location) }

    /// The URL or path of `page`.
    func url(of page: PageRequest) -> String {
        if location.contains("{offset}") {
            return location.replacingOccurrences(of: "{offset}", with: String(page.position))
                .replacingOccurrences(of: "{limit}", with: String(limit))
        }
        return URLQuery.appending(page.queryPairs, to: location)
    }
}

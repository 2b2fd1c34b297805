extension FeedReport {
    /// How many stale URLs a summary names before "and N more": an offline run of a paginated
    /// feed serves hundreds, and the full list is in `--json`.
    public static let staleURLsNamed = 3

    /// One line on the responses served from the cache: their count, the oldest one's age and
    /// the first few URLs; `nil` when none was.
    public var staleSummary: String? {
        guard !staleURLs.isEmpty else { return nil }
        return "stale: served \(staleURLs.count) response(s) from the cache (oldest \(staleAgeSeconds ?? 0)s old): "
            + Self.summarize(staleURLs)
    }

    /// `urls` joined with commas, the ones past ``staleURLsNamed`` counted instead of listed.
    package static func summarize(_ urls: [String]) -> String {
        let named = urls.prefix(staleURLsNamed).joined(separator: ", ")
        let more = urls.count - staleURLsNamed
        return more > 0 ? "\(named) and \(more) more" : named
    }
}

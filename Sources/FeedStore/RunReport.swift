import FeedKit

/// What one `feedwork run` did, feed by feed. Printed as a table, or as JSON with `--json`.
public struct RunReport: Sendable, Codable {
    public var feeds: [FeedReport]

    /// Whether every feed that ran succeeded (a stale feed, or one with rejects within its
    /// `max_reject_ratio`, counts as a success; an interrupted one does not).
    public var succeeded: Bool { feeds.allSatisfy { $0.status != .failed && $0.status != .interrupted } }

    package init(feeds: [FeedReport]) {
        self.feeds = feeds
    }
}

/// The outcome of one feed's pass.
public struct FeedReport: Sendable, Codable {
    public enum Status: String, Sendable, Codable {
        /// Fetched, mapped and committed.
        case ok
        /// Committed, with some records rejected (kept in `_rejects`), no more than the feed's
        /// `max_reject_ratio` allows.
        case okWithRejects = "ok_with_rejects"
        /// Committed, but at least one response came from the cache because the network failed
        /// (whether or not records were rejected too).
        case stale
        /// Nothing committed; the feed's rows are as they were. Also a pass that rejected more
        /// of its records than its `max_reject_ratio` allows.
        case failed
        /// Stopped by an interrupt (Ctrl-C) before it committed: rolled back, so the feed's rows
        /// are as they were.
        case interrupted
        /// Not run: a feed it depends on (``FeedConfig/dependsOn``) failed, was interrupted or
        /// was skipped in the same run, so its input is not what it expects. A note says which.
        case skipped
    }

    public var feed: String
    public var adapter: String
    /// The `_runs.id` of this pass; `feedwork export --changed-since` takes it.
    public var run: Int64?
    public var status: Status
    public var counts: WriteCounts
    public var requests: Int
    public var attempts: Int
    public var bytes: Int
    public var milliseconds: Int
    /// The URLs served from the cache because the network failed, and the oldest one's age.
    public var staleURLs: [String]
    public var staleAgeSeconds: Int?
    public var error: String?
    public var notes: [String]
    /// Outbox events delivered after the pass, and those still waiting.
    public var outboxDelivered: Int
    public var outboxPending: Int
    /// What mirroring the images of the feed's media columns did after the pass committed;
    /// `nil` for a feed without media columns, or a pass that did not commit.
    public var media: MediaPassCounts?
    /// The passes of the feed that committed before its last one in this run, when its adapter
    /// asked for several (``FeedKit/FeedPass/continueAfterCommit()``): a last pass that failed
    /// or was interrupted left those (`earlier_commits` in `run --json`).
    public var earlierCommits = 0

    /// `staleUrls`, so that snake_case output (`feedwork run --json`) reads `stale_urls`.
    package enum CodingKeys: String, CodingKey {
        case feed, adapter, run, status, counts, requests, attempts, bytes, milliseconds
        case staleURLs = "staleUrls"
        case staleAgeSeconds, error, notes, outboxDelivered, outboxPending, media, earlierCommits
    }

    package init(
        feed: String, adapter: String, run: Int64? = nil, status: Status, counts: WriteCounts, requests: Int,
        attempts: Int, bytes: Int, milliseconds: Int, staleURLs: [String], staleAgeSeconds: Int? = nil,
        error: String? = nil, notes: [String], outboxDelivered: Int, outboxPending: Int
    ) {
        self.feed = feed
        self.adapter = adapter
        self.run = run
        self.status = status
        self.counts = counts
        self.requests = requests
        self.attempts = attempts
        self.bytes = bytes
        self.milliseconds = milliseconds
        self.staleURLs = staleURLs
        self.staleAgeSeconds = staleAgeSeconds
        self.error = error
        self.notes = notes
        self.outboxDelivered = outboxDelivered
        self.outboxPending = outboxPending
    }
}

import FeedKit
import Foundation

/// `_schedule`, the schedule board: when each scheduled feed is next due, and which worker
/// holds it; written once for every driver.
///
/// A worker claims due feeds from the board, holds each claim for a lease it renews while the
/// pass runs, and gives the feed back with its next due time. Claims are atomic, so of any
/// number of workers sharing a PostgreSQL store exactly one runs a due feed (a claim skips the
/// rows another claim has locked, ``SQLDialect/skipLocked``); a claim whose lease ran out (its
/// worker died) can be taken by another. The feed's own lease (``StoreDriver/lease(of:wait:)``)
/// still guards the pass itself. One worker runs on a SQLite store (it holds the store's lock),
/// so claims never race there; the board still records them for `feedwork list`.
///
/// Times are on the board's clock (``clock()``): on a store shared by machines, its database
/// server's, so that workers on machines whose clocks disagree (a clock 30 s ahead, one stepped
/// back) still agree on when a feed is due and when a lease runs out.
extension Store {
    /// The board's own time, when it keeps one: the database server's on a store shared by
    /// machines (``StoreCapabilities/sharedByMachines``), which every worker sharing the store
    /// keeps its schedule by (``ScheduleTime``). `nil` for a board on this machine, whose clock
    /// is the machine's.
    package func clock() async throws -> Date? {
        guard capabilities.sharedByMachines else { return nil }
        let sql = "SELECT \(dialect.timestampText(dialect.clock))"
        return try await readSQL { connection in
            try connection.rows(sql, []).first?[0].text.flatMap(Timestamp.date)
        }
    }

    /// Puts each of `feeds` on the board, due at its `due` time, unless it is there already
    /// with the same schedule and was due at or after `overdueBefore`. A feed that no worker
    /// holds is due at its new `due` time when its schedule changed, or when it was due before
    /// `overdueBefore`: no worker ran it for that long (they were stopped), so it comes due at
    /// its next time rather than at once with every other feed the downtime left overdue.
    ///
    /// One statement for every feed: 10,000 feeds planned one statement each kept a starting
    /// worker seconds away from its first claim.
    package func plan(_ feeds: [PlannedFeed], overdueBefore: Date) async throws {
        guard !feeds.isEmpty else { return }
        let records = feeds.map { ["feed": $0.feed, "schedule": $0.schedule, "due": Timestamp.string($0.due)] }
        let text = String(decoding: try JSONEncoder().encode(records), as: UTF8.self)
        let planned = dialect.jsonRecords([("feed", .text), ("schedule", .text), ("due", .time)], as: "planned")
        // `WHERE true` tells SQLite that `ON CONFLICT` is the upsert's, not a join's.
        let sql = """
            INSERT INTO _schedule(feed, schedule, next_run_at)
            SELECT feed, schedule, due FROM \(planned) WHERE true
            ON CONFLICT (feed) DO UPDATE SET schedule = excluded.schedule, next_run_at = excluded.next_run_at
            WHERE (_schedule.schedule != excluded.schedule OR _schedule.next_run_at < ?)
                AND _schedule.claimed_by IS NULL
            """
        try await writeSQL { connection in
            _ = try connection.execute(sql, [.text(text), .text(Timestamp.string(overdueBefore))])
        }
    }

    /// Claims up to `limit` of the feeds on the board but `excluded` that are due by `dueBy`
    /// and held by no worker (or by one whose lease ran out at `now`) for `worker`, until
    /// `now + lease`; the most overdue first, sorted by due time and feed. A `dueBy` after `now`
    /// claims feeds ahead of their due time (the worker's `ClaimsAhead`).
    ///
    /// A worker names the few feeds it cannot take (running, claimed, waiting for a parent,
    /// not in its config) rather than the many it can: with 10,000 feeds, sending every
    /// candidate's name with each claim was half of a worker's CPU and most of the server's.
    ///
    /// On a store shared by machines, the claim also takes over what dead workers left of the
    /// feeds it claims (``StoreDriver/interruptAbandonedRuns(of:in:)``), in its transaction.
    package func claim(
        excluding excluded: [String], worker: String, now: Date, dueBy: Date, lease: FeedDuration, limit: Int
    ) async throws -> [ScheduleClaim] {
        let sql = """
            UPDATE _schedule SET claimed_by = ?, lease_until = ?
            WHERE feed IN (
                SELECT feed FROM _schedule
                WHERE feed NOT IN (\(dialect.jsonArrayTexts)) AND next_run_at <= ?
                    AND (claimed_by IS NULL OR lease_until < ?)
                ORDER BY next_run_at, feed LIMIT ? \(dialect.skipLocked))
            RETURNING feed, \(dialect.timestampText("next_run_at"))
            """
        let arguments: [SQLValue] = [
            .text(worker), .text(Timestamp.string(now.addingTimeInterval(lease.seconds))),
            .text(excluded.jsonArrayText), .text(Timestamp.string(dueBy)), .text(Timestamp.string(now)),
            .integer(Int64(limit)),
        ]
        let takesOver = capabilities.sharedByMachines
        return try await writeSQL { connection in
            let claims = try connection.rows(sql, arguments).map { row in
                ScheduleClaim(feed: row[0].text ?? "", due: row[1].text.flatMap(Timestamp.date) ?? now)
            }.sorted { ($0.due, $0.feed) < ($1.due, $1.feed) }
            if takesOver && !claims.isEmpty {
                try self.driver.interruptAbandonedRuns(of: claims.map(\.feed), in: connection)
            }
            return claims
        }
    }

    /// Extends `worker`'s claim on `feed` to `until`; `false` when the worker no longer holds it.
    package func renew(feed: String, worker: String, until: Date) async throws -> Bool {
        try await writeSQL { connection in
            try connection.execute(
                "UPDATE _schedule SET lease_until = ? WHERE feed = ? AND claimed_by = ?",
                [.text(Timestamp.string(until)), .text(feed), .text(worker)]) > 0
        }
    }

    /// Gives `feed` back, due next at `next`.
    package func release(feed: String, worker: String, next: Date) async throws {
        try await writeSQL { connection in
            _ = try connection.execute(
                """
                UPDATE _schedule SET claimed_by = NULL, lease_until = NULL, next_run_at = ?
                WHERE feed = ? AND claimed_by = ?
                """, [.text(Timestamp.string(next)), .text(feed), .text(worker)])
        }
    }

    /// The earliest moment one of the feeds on the board but `excluded` may be claimed: its due
    /// time, or for a feed another worker holds, the later of that and the end of its lease.
    /// `nil` when there is none.
    package func nextClaimable(excluding excluded: [String]) async throws -> Date? {
        // The earliest free feed and the earliest held one apart, each by its index
        // (`_schedule_due`, `_schedule_held`); either may be null.
        let sql = """
            SELECT \(dialect.timestampText(dialect.least("free", "held"))) FROM (SELECT
                (SELECT next_run_at FROM _schedule
                    WHERE claimed_by IS NULL AND feed NOT IN (\(dialect.jsonArrayTexts))
                    ORDER BY next_run_at LIMIT 1) AS free,
                (SELECT min(\(dialect.greatest("next_run_at", "lease_until"))) FROM _schedule
                    WHERE claimed_by IS NOT NULL AND feed NOT IN (\(dialect.jsonArrayTexts))) AS held) AS board
            """
        let names = SQLValue.text(excluded.jsonArrayText)
        return try await readSQL { connection in
            try connection.rows(sql, [names, names]).first?[0].text.flatMap(Timestamp.date)
        }
    }
}

extension StoreReading {
    /// Every feed on the board, by name; none when the store has no board yet.
    package func scheduleEntries() async throws -> [String: ScheduleEntry] {
        let exists = dialect.tableExists
        let sql = """
            SELECT feed, schedule, \(dialect.timestampText("next_run_at")), claimed_by,
                \(dialect.timestampText("lease_until"))
            FROM _schedule
            """
        return try await readSQL { connection in
            guard try !connection.rows(exists, [.text("_schedule")]).isEmpty else { return [:] }
            var entries: [String: ScheduleEntry] = [:]
            for row in try connection.rows(sql, []) {
                entries[row[0].text ?? ""] = ScheduleEntry(
                    schedule: row[1].text ?? "", nextRunAt: row[2].text.flatMap(Timestamp.date) ?? .distantPast,
                    worker: row[3].text, leaseUntil: row[4].text.flatMap(Timestamp.date))
            }
            return entries
        }
    }

    /// When each feed's latest pass started, by feed.
    package func lastRunStarts() async throws -> [String: Date] {
        let sql = "SELECT feed, \(dialect.timestampText("max(started_at)")) FROM _runs GROUP BY feed"
        return try await readSQL { connection in
            var starts: [String: Date] = [:]
            for row in try connection.rows(sql, []) { starts[row[0].text ?? ""] = row[1].text.flatMap(Timestamp.date) }
            return starts
        }
    }
}

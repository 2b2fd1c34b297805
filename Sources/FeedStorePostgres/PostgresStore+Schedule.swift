import FeedKit
import FeedStore
import Foundation

/// `_schedule` on PostgreSQL, shared by every worker on the store: a claim takes due rows
/// with `FOR UPDATE SKIP LOCKED`, so two workers claiming at once never get the same feed.
///
/// A worker that claims a feed also takes over what a dead worker left of it: the feed's runs
/// still `running` without their lease are marked `interrupted` in the claim's transaction.
///
/// Workers keep the board's times on the server's clock (``clock()``), not their machines'.
extension PostgresStore: ScheduleBoard {
    /// The server's time: the one clock every worker sharing the store agrees on.
    package func clock() async throws -> Date? {
        try await read { connection in
            try connection.execute("SELECT \(PostgresSQL.isoText("clock_timestamp()"))").first(column: 0)
                .flatMap(Timestamp.date)
        }
    }

    /// One statement for every feed: 10,000 feeds planned one statement each kept a starting
    /// worker seconds away from its first claim.
    package func plan(_ feeds: [PlannedFeed], overdueBefore: Date) async throws {
        let rows = feeds.map { ["feed": $0.feed, "schedule": $0.schedule, "due": Timestamp.string($0.due)] }
        let text = String(decoding: try JSONEncoder().encode(rows), as: UTF8.self)
        try await write { connection in
            _ = try connection.execute(
                """
                INSERT INTO _schedule(feed, schedule, next_run_at)
                SELECT feed, schedule, due::timestamptz
                FROM jsonb_to_recordset($1::jsonb) AS planned(feed text, schedule text, due text)
                ON CONFLICT (feed) DO UPDATE SET schedule = excluded.schedule, next_run_at = excluded.next_run_at
                WHERE (_schedule.schedule != excluded.schedule OR _schedule.next_run_at < $2::timestamptz)
                    AND _schedule.claimed_by IS NULL
                """, [text, Timestamp.string(overdueBefore)])
        }
    }

    package func claim(
        excluding excluded: [String], worker: String, now: Date, dueBy: Date, lease: FeedDuration, limit: Int
    ) async throws -> [ScheduleClaim] {
        let parameters = [
            worker, Timestamp.string(now.addingTimeInterval(lease.seconds)), excluded.jsonArrayText,
            Timestamp.string(now), String(limit), Timestamp.string(dueBy),
        ]
        let schema = schema
        return try await write { connection in
            let rows = try connection.execute(
                """
                UPDATE _schedule SET claimed_by = $1, lease_until = $2::timestamptz
                WHERE feed IN (
                    SELECT feed FROM _schedule
                    WHERE feed NOT IN (SELECT jsonb_array_elements_text($3::jsonb)) AND next_run_at <= $6::timestamptz
                        AND (claimed_by IS NULL OR lease_until < $4::timestamptz)
                    ORDER BY next_run_at, feed LIMIT $5::bigint
                    FOR UPDATE SKIP LOCKED)
                RETURNING feed, \(PostgresSQL.isoText("next_run_at"))
                """, parameters)
            let claims = (0..<rows.count).map {
                ScheduleClaim(feed: rows[$0, 0] ?? "", due: rows[$0, 1].flatMap(Timestamp.date) ?? now)
            }.sorted { ($0.due, $0.feed) < ($1.due, $1.feed) }
            if !claims.isEmpty {
                try Self.markInterruptedRuns(of: claims.map(\.feed), schema: schema, in: connection)
            }
            return claims
        }
    }

    package func renew(feed: String, worker: String, until: Date) async throws -> Bool {
        try await write { connection in
            let rows = try connection.execute(
                "UPDATE _schedule SET lease_until = $1::timestamptz WHERE feed = $2 AND claimed_by = $3 RETURNING feed",
                [Timestamp.string(until), feed, worker])
            return rows.count > 0
        }
    }

    package func release(feed: String, worker: String, next: Date) async throws {
        try await write { connection in
            _ = try connection.execute(
                """
                UPDATE _schedule SET claimed_by = NULL, lease_until = NULL, next_run_at = $1::timestamptz
                WHERE feed = $2 AND claimed_by = $3
                """, [Timestamp.string(next), feed, worker])
        }
    }

    package func nextClaimable(excluding excluded: [String]) async throws -> Date? {
        try await read { connection in
            // The earliest free feed and the earliest held one apart, each by its index.
            let rows = try connection.execute(
                """
                SELECT \(PostgresSQL.isoText("least(free.due, held.due)")) FROM
                    (SELECT next_run_at AS due FROM _schedule
                        WHERE claimed_by IS NULL AND feed NOT IN (SELECT jsonb_array_elements_text($1::jsonb))
                        ORDER BY next_run_at LIMIT 1) AS free
                    FULL JOIN (SELECT min(greatest(next_run_at, lease_until)) AS due FROM _schedule
                        WHERE claimed_by IS NOT NULL AND feed NOT IN (SELECT jsonb_array_elements_text($1::jsonb))
                    ) AS held ON true
                """, [excluded.jsonArrayText])
            return rows.first(column: 0).flatMap(Timestamp.date)
        }
    }

    package func scheduleEntries() async throws -> [String: ScheduleEntry] {
        try await read { connection in
            guard try connection.execute("SELECT to_regclass('_schedule') IS NOT NULL")[0, 0] == "t" else { return [:] }
            let rows = try connection.execute(
                """
                SELECT feed, schedule, \(PostgresSQL.isoText("next_run_at")), claimed_by, \(PostgresSQL.isoText("lease_until"))
                FROM _schedule
                """)
            var entries: [String: ScheduleEntry] = [:]
            for row in 0..<rows.count {
                entries[rows[row, 0] ?? ""] = ScheduleEntry(
                    schedule: rows[row, 1] ?? "", nextRunAt: rows[row, 2].flatMap(Timestamp.date) ?? .distantPast,
                    worker: rows[row, 3], leaseUntil: rows[row, 4].flatMap(Timestamp.date))
            }
            return entries
        }
    }

    package func lastRunStarts() async throws -> [String: Date] {
        try await read { connection in
            let rows = try connection.execute(
                "SELECT feed, \(PostgresSQL.isoText("max(started_at)")) FROM _runs GROUP BY feed")
            var starts: [String: Date] = [:]
            for row in 0..<rows.count { starts[rows[row, 0] ?? ""] = rows[row, 1].flatMap(Timestamp.date) }
            return starts
        }
    }
}

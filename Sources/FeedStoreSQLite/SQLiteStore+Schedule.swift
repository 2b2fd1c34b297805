import FeedKit
import FeedStore
import Foundation
import GRDB

/// `_schedule` on SQLite. One worker runs on a SQLite store (it holds the store's lock), so
/// claims never race; the board still records them for `feedwork list`.
extension SQLiteStore: ScheduleBoard {
    package func plan(_ feeds: [PlannedFeed], overdueBefore: Date) async throws {
        let overdue = Timestamp.string(overdueBefore)
        try await write { db in
            for planned in feeds {
                try db.execute(
                    sql: """
                        INSERT INTO _schedule(feed, schedule, next_run_at) VALUES (?, ?, ?)
                        ON CONFLICT (feed) DO UPDATE SET schedule = excluded.schedule,
                            next_run_at = excluded.next_run_at
                        WHERE (_schedule.schedule != excluded.schedule OR _schedule.next_run_at < ?)
                            AND _schedule.claimed_by IS NULL
                        """, arguments: [planned.feed, planned.schedule, Timestamp.string(planned.due), overdue])
            }
        }
    }

    package func claim(
        excluding excluded: [String], worker: String, now: Date, dueBy: Date, lease: FeedDuration, limit: Int
    ) async throws -> [ScheduleClaim] {
        let names = excluded.jsonArrayText
        let nowText = Timestamp.string(now)
        let dueByText = Timestamp.string(dueBy)
        let until = Timestamp.string(now.addingTimeInterval(lease.seconds))
        return try await write { db in
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT feed, next_run_at FROM _schedule
                    WHERE feed NOT IN (SELECT value FROM json_each(?)) AND next_run_at <= ?
                        AND (claimed_by IS NULL OR lease_until < ?)
                    ORDER BY next_run_at, feed LIMIT ?
                    """, arguments: [names, dueByText, nowText, limit])
            var claims: [ScheduleClaim] = []
            for row in rows {
                let feed: String = row[0]
                try db.execute(
                    sql: "UPDATE _schedule SET claimed_by = ?, lease_until = ? WHERE feed = ?",
                    arguments: [worker, until, feed])
                claims.append(ScheduleClaim(feed: feed, due: Timestamp.date(row[1]) ?? now))
            }
            return claims
        }
    }

    package func renew(feed: String, worker: String, until: Date) async throws -> Bool {
        try await write { db in
            try db.execute(
                sql: "UPDATE _schedule SET lease_until = ? WHERE feed = ? AND claimed_by = ?",
                arguments: [Timestamp.string(until), feed, worker])
            return db.changesCount > 0
        }
    }

    package func release(feed: String, worker: String, next: Date) async throws {
        try await write { db in
            try db.execute(
                sql: """
                    UPDATE _schedule SET claimed_by = NULL, lease_until = NULL, next_run_at = ?
                    WHERE feed = ? AND claimed_by = ?
                    """, arguments: [Timestamp.string(next), feed, worker])
        }
    }

    package func nextClaimable(excluding excluded: [String]) async throws -> Date? {
        let names = excluded.jsonArrayText
        let text = try await read { db in
            try String.fetchOne(
                db,
                // The earliest free feed and the earliest held one apart, each by its index;
                // SQLite's two-argument min() is NULL when either is.
                sql: """
                    SELECT min(coalesce(free, held), coalesce(held, free)) FROM (SELECT
                        (SELECT next_run_at FROM _schedule
                            WHERE claimed_by IS NULL AND feed NOT IN (SELECT value FROM json_each(?1))
                            ORDER BY next_run_at LIMIT 1) AS free,
                        (SELECT min(max(next_run_at, lease_until)) FROM _schedule
                            WHERE claimed_by IS NOT NULL AND feed NOT IN (SELECT value FROM json_each(?1))) AS held)
                    """, arguments: [names])
        }
        return text.flatMap(Timestamp.date)
    }

    package func scheduleEntries() async throws -> [String: ScheduleEntry] {
        try await read { db in
            guard try db.tableExists("_schedule") else { return [:] }
            var entries: [String: ScheduleEntry] = [:]
            for row in try Row.fetchAll(
                db, sql: "SELECT feed, schedule, next_run_at, claimed_by, lease_until FROM _schedule")
            {
                let nextRunAt: String = row[2]
                let leaseUntil: String? = row[4]
                entries[row[0]] = ScheduleEntry(
                    schedule: row[1], nextRunAt: Timestamp.date(nextRunAt) ?? .distantPast, worker: row[3],
                    leaseUntil: leaseUntil.flatMap(Timestamp.date))
            }
            return entries
        }
    }

    package func lastRunStarts() async throws -> [String: Date] {
        try await read { db in
            var starts: [String: Date] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT feed, max(started_at) FROM _runs GROUP BY feed") {
                let started: String = row[1]
                starts[row[0]] = Timestamp.date(started)
            }
            return starts
        }
    }
}

import FeedKit
import Foundation

/// The lower bound of `--changed-since`: rows inserted or changed after a run, or by runs that
/// started at or after an instant.
///
/// Every row's `_run` holds the run that last inserted or changed it (a pass that delivers a
/// record unchanged does not touch `_run`), so:
///
/// - `.run(N)` selects rows with `_run > N`. Run ids grow with every run of every feed; the
///   report of `feedwork run` and the export manifest show them.
/// - `.time(T)` selects rows whose `_run` is a run that started at or after `T`
///   (`_runs.started_at >= T`).
///
/// Rows deleted by a `replace` feed are gone from their table; their tombstones (`_tombstones`)
/// are selected by the same bound with `--include-deleted` (see ``DeletedRows``).
public enum ChangedSince: Sendable, Hashable {
    case run(Int64)
    case time(Date)

    /// A subquery of the ids of the runs started at or after its one parameter (an ISO 8601
    /// time), the same on every store.
    package static let runsStartedSinceSQL = "SELECT id FROM _runs WHERE started_at >= ?"

    /// The SQL condition that `runColumn` (a column of run ids) holds a run in the window, and
    /// its one argument.
    package func condition(on runColumn: String) -> (sql: String, argument: FieldValue) {
        switch self {
        case .run(let run): ("\(runColumn) > ?", .integer(run))
        case .time(let date): ("\(runColumn) IN (\(Self.runsStartedSinceSQL))", .text(Timestamp.string(date)))
        }
    }

    /// Parses a run id (digits), an ISO 8601 timestamp (`2026-01-31T12:00:00Z`, with an
    /// offset, or a date `2026-01-31` meaning its midnight UTC), or a Singer state
    /// (``SingerState``: its JSON, or a file whose last line it is).
    ///
    /// - Throws: a usage ``ExportError`` for anything else.
    public init(parsing text: String) throws(ExportError) {
        if !text.isEmpty, text.allSatisfy(\.isASCII), let run = Int64(text) {
            self = .run(run)
        } else if let date = Timestamp.date(text) ?? Timestamp.date(text + "T00:00:00Z") {
            self = .time(date)
        } else if let run = try SingerState.run(from: text) {
            self = .run(run)
        } else {
            throw .usage(
                "--changed-since '\(text)': expected a run id (e.g. 42), an ISO 8601 timestamp (e.g. 2026-01-31T12:00:00Z) or a Singer state ({\"\(SingerState.runKey)\": 42}, or a file holding it)"
            )
        }
    }
}

import Foundation

/// Pieces of PostgreSQL's SQL that the store's statements share.
enum PostgresSQL {
    /// `name` as a quoted identifier.
    static func identifier(_ name: String) -> String {
        "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// `column` (a `timestamptz`) as the store's ISO 8601 text, `2026-11-21T22:40:01.123Z`,
    /// like ``Timestamp/string(_:)`` writes on SQLite.
    static func isoText(_ column: String) -> String {
        #"to_char(\#(column) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')"#
    }

    /// `column` (a `timestamptz` of a record) as its normalized ISO 8601 text, as the SQLite store
    /// holds it (``FeedKit/ISO8601/normalized(_:)``): whole seconds without a fraction
    /// (`2019-11-06T11:22:35Z`), else milliseconds.
    static func recordTimeText(_ column: String) -> String {
        let seconds = #"to_char(\#(column) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')"#
        return "CASE WHEN date_trunc('second', \(column)) = \(column) THEN \(seconds) ELSE \(isoText(column)) END"
    }
}

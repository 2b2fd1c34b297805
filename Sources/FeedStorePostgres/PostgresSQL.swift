import FeedStore
import Foundation

/// Pieces of PostgreSQL's SQL that the store's statements share.
enum PostgresSQL {
    /// Takes the lock that serializes changes to the tables and view of the entity named `$1`
    /// in the current schema, until the transaction ends: two transactions creating one table
    /// at once would both find it missing, and the second would fail on PostgreSQL's catalog (a
    /// duplicate `pg_type_typname_nsp_index` key). One lock per entity (by its lowercased name,
    /// so that names differing only in case, which the store refuses, wait for each other), so
    /// passes that create or change different entities, which hold their locks until they
    /// commit, do not wait for each other. A one-`bigint` key, so it never meets the feed
    /// leases' two-`int4` keys (``PostgresFeedLease``).
    static let entityChangeLockSQL =
        "SELECT pg_advisory_xact_lock(hashtextextended('feedwork schema changes ' || current_schema() || ' ' || lower($1), 0))"

    /// `name` qualified with `schema`, `"feedwork"."thing"`: what Feedwork's statements that
    /// create, change or drop a table, index or view name, so that they never reach another
    /// schema's (PostgreSQL searches `pg_catalog` before the search path's schemas).
    static func qualified(_ name: String, in schema: String) -> String {
        identifier(schema) + "." + identifier(name)
    }

    /// The query of the schema that unqualified names are created in: the connection's own.
    static let currentSchemaSQL = "SELECT current_schema()"

    /// `text` as an escape string literal (`E'...'`), which reads the same whatever the server's
    /// `standard_conforming_strings`: for statements that take no parameters (`COMMENT ON`, a
    /// `DO` block).
    static func literal(_ text: String) -> String {
        "E'" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "''") + "'"
    }

    /// `name` as a quoted identifier.
    static func identifier(_ name: String) -> String {
        "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// `values` as a PostgreSQL array literal, `{"a","b\\"c",NULL}`, `nil` as NULL: the text of
    /// an array parameter (`$1::text[]`), each element parsed as the array's type.
    ///
    /// Built byte by byte: the pass's cached responses travel as such arrays (their bodies in
    /// hex, tens of KB a page), and Foundation's `replacingOccurrences` took 8% of a PostgreSQL
    /// first pass's CPU escaping them.
    static func arrayLiteral(_ values: [String?]) -> String {
        var bytes: [UInt8] = [UInt8(ascii: "{")]
        bytes.reserveCapacity(2 + values.reduce(0) { $0 + ($1?.utf8.count ?? 4) + 3 })
        for (index, value) in values.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            guard let value else {
                bytes.append(contentsOf: "NULL".utf8)
                continue
            }
            bytes.append(UInt8(ascii: "\""))
            for byte in value.utf8 {
                if byte == UInt8(ascii: "\\") || byte == UInt8(ascii: "\"") { bytes.append(UInt8(ascii: "\\")) }
                bytes.append(byte)
            }
            bytes.append(UInt8(ascii: "\""))
        }
        bytes.append(UInt8(ascii: "}"))
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `column` (a `timestamptz`) as the store's ISO 8601 text, `2026-11-21T22:40:01.123Z`,
    /// like ``Timestamp/string(_:)`` writes on SQLite.
    static func isoText(_ column: String) -> String {
        #"to_char(\#(column) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')"#
    }

    /// `column` (a `timestamptz` of a record) as its normalized ISO 8601 text, as the SQLite store
    /// holds it: whole seconds without a fraction (`2019-11-06T11:22:35Z`), else the fraction to
    /// the microsecond, with at least three digits (`.500`, `.1235`, `.123456`).
    static func recordTimeText(_ column: String) -> String {
        let seconds = #"to_char(\#(column) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')"#
        let micro =
            #"regexp_replace(to_char(\#(column) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'), '0+Z$', 'Z')"#
        return
            "CASE WHEN date_trunc('second', \(column)) = \(column) THEN \(seconds) WHEN date_trunc('milliseconds', \(column)) = \(column) THEN \(isoText(column)) ELSE \(micro) END"
    }
}

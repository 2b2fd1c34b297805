/// What a person's read-only statement may not reach, on every store.
///
/// Hidden: the response cache (`_http_cache` holds the headers a server sent, cookies
/// included; `_http_cache_body` the bodies), the feeds' state (`_state` holds cursors and the
/// sealed OAuth2 tokens) and the outbox (`_outbox` holds the URLs a pass notifies, which often
/// carry a secret). Open: the entities, their views and child tables, `_runs`, `_rejects`,
/// `_entities`, `_tombstones` and `_schedule`, which the pages show anyway.
///
/// SQLite enforces it with an authorizer on the statement's own connection (every table read,
/// however reached); PostgreSQL has no authorizer, so a statement is refused when any of its
/// identifiers, outside strings and comments and in any case or quoting, names a hidden table
/// or a function that runs SQL given as text, reads the server's files or acts on other
/// sessions (``refusedFunctionPrefixes``), and when its plan (`EXPLAIN`) reads a hidden table,
/// as through a view.
package enum ReadOnlySQLPolicy {
    /// The system tables no statement reads.
    package static let hiddenTables: Set<String> = ["_http_cache", "_http_cache_body", "_state", "_outbox"]

    /// Functions SQLite refuses: loading code and touching files.
    package static let refusedSQLiteFunctions: Set<String> = [
        "load_extension", "fts3_tokenizer", "readfile", "writefile", "edit", "zipfile", "sqlar_compress",
        "sqlar_uncompress",
    ]

    /// Functions PostgreSQL refuses, by the start of their name: those that run a query given as
    /// text (which would read a hidden table by a name no scan sees), read or list the server's
    /// files, signal other sessions, take advisory locks (the feeds' leases) or write settings.
    package static let refusedFunctionPrefixes = [
        "query_to_xml", "table_to_xml", "cursor_to_xml", "schema_to_xml", "database_to_xml", "ts_stat",
        "ts_rewrite", "dblink", "pg_read_", "pg_ls_", "pg_stat_file", "pg_file", "lo_", "pg_terminate_backend",
        "pg_cancel_backend", "pg_reload_conf", "pg_rotate_logfile", "pg_promote", "pg_advisory",
        "pg_try_advisory", "set_config", "pg_notify", "pg_logical", "pg_replication", "pg_create_",
        "pg_drop_", "pg_switch_wal", "pg_backup", "pg_import_", "binary_upgrade", "pg_sleep_until",
    ]

    /// Why `identifier` (as written, unquoted) may not appear in a statement, or `nil`.
    package static func refusal(ofIdentifier identifier: String, functions: Bool) -> String? {
        let name = identifier.lowercased()
        if hiddenTables.contains(name) {
            return "the table \(name) is hidden from SQL: it holds the response cache, the feeds' state and tokens,"
                + " or notification URLs (hidden: \(hiddenTables.sorted().joined(separator: ", ")))"
        }
        if functions, let prefix = refusedFunctionPrefixes.first(where: { name.hasPrefix($0) }) {
            return "\(name): functions named \(prefix)... are not open to SQL here"
                + " (they run SQL given as text, read the server's files or act beyond this statement)"
        }
        return nil
    }

    /// `limit` for a message: `5 s`, `250 ms`.
    package static func text(_ limit: Duration) -> String {
        let milliseconds = limit.components.seconds * 1000 + limit.components.attoseconds / 1_000_000_000_000_000
        return milliseconds % 1000 == 0 ? "\(milliseconds / 1000) s" : "\(milliseconds) ms"
    }
}

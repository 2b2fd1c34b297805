import CLibPQ
import Foundation

/// Drops a harness's PostgreSQL schema with one blocking libpq statement, for a harness's
/// `deinit`, which cannot await the store's reads; errors are left unseen (the schema is a
/// leftover either way).
enum PostgresSchemaDrop {
    static func drop(_ schema: String, url: String) {
        guard fw_pq_load() == 1, let connection = fw_PQconnectdb(url) else { return }
        defer { fw_PQfinish(connection) }
        guard fw_PQstatus(connection) == CONNECTION_OK else { return }
        let quoted = "\"" + schema.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        fw_PQclear(fw_PQexec(connection, "DROP SCHEMA " + quoted + " CASCADE"))
    }
}

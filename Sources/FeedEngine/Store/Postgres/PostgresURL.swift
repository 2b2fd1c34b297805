import Foundation

/// A `store:` that names a PostgreSQL database: `postgres://user@host:5432/db?sslmode=disable`
/// (or `postgresql://`), passed to libpq as it is.
enum PostgresURL {
    /// Whether `store` names PostgreSQL rather than an SQLite file.
    static func isPostgres(_ store: String) -> Bool {
        store.hasPrefix("postgres://") || store.hasPrefix("postgresql://")
    }

    /// `url` with its password (if any) removed, for messages and reports.
    static func withoutPassword(_ url: String) -> String {
        guard let scheme = url.range(of: "://"), let at = url[scheme.upperBound...].firstIndex(of: "@") else {
            return url
        }
        let credentials = url[scheme.upperBound..<at]
        guard let colon = credentials.firstIndex(of: ":") else { return url }
        return String(url[..<colon]) + String(url[at...])
    }
}

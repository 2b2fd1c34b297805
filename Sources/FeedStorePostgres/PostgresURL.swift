import FeedStore
import Foundation

/// A `store:` that names a PostgreSQL database: `postgres://user@host:5432/db?sslmode=disable`
/// (or `postgresql://`), passed to libpq as it is, and the `schema:` of Feedwork's tables there.
package enum PostgresURL {
    /// The schema of Feedwork's tables when `schema:` gives none.
    package static let defaultSchema = "feedwork"

    /// The store at `url`, its tables in `schema` (``defaultSchema`` when `nil`), named in
    /// messages without its password.
    package static func location(_ url: String, schema: String?) -> StoreLocation {
        let schema = schema ?? defaultSchema
        return StoreLocation(
            store: url, schema: schema, description: "\(withoutPassword(url)) (schema \(schema))", filePath: nil)
    }

    /// What is wrong with `location` as a PostgreSQL store: its URL, and its schema's name.
    package static func problems(of location: StoreLocation) -> [StoreLocation.Problem] {
        var problems = problem(location.store).map { [StoreLocation.Problem($0, at: .store)] } ?? []
        if let schema = location.schema {
            if !isSchemaName(schema) {
                problems.append(
                    StoreLocation.Problem(
                        "'schema' must be a PostgreSQL schema name: lowercase letters, digits and _, starting with a letter or _, at most 63 characters",
                        at: .schema))
            } else if let reserved = reservedSchemaProblem(schema) {
                problems.append(StoreLocation.Problem(reserved, at: .schema))
            }
        }
        return problems
    }

    /// Whether `store` names PostgreSQL rather than an SQLite file.
    package static func isPostgres(_ store: String) -> Bool {
        store.hasPrefix("postgres://") || store.hasPrefix("postgresql://")
    }

    /// `url` with its password (if any) removed, for messages and reports.
    package static func withoutPassword(_ url: String) -> String {
        guard let scheme = url.range(of: "://"), let at = url[scheme.upperBound...].firstIndex(of: "@") else {
            return url
        }
        let credentials = url[scheme.upperBound..<at]
        guard let colon = credentials.firstIndex(of: ":") else { return url }
        return String(url[..<colon]) + String(url[at...])
    }

    /// What is wrong with `url` as a store, or `nil`: it needs a host and a database.
    package static func problem(_ url: String) -> String? {
        guard let components = URLComponents(string: url), let host = components.host, !host.isEmpty else {
            return
                "the store \(withoutPassword(url)) is not a PostgreSQL URL such as postgres://user@localhost:5432/feeds"
        }
        guard components.path.count > 1 else {
            return
                "the store \(withoutPassword(url)) names no database: add it after the host, as in postgres://\(host)/feeds"
        }
        return nil
    }

    /// Why Feedwork refuses `schema` as its store's schema, or `nil`: `information_schema`,
    /// `pg_catalog` and every `pg_` name belong to PostgreSQL itself (its catalogs, TOAST and
    /// temporary schemas), where tables must not be made.
    package static func reservedSchemaProblem(_ schema: String) -> String? {
        guard schema == "information_schema" || schema.hasPrefix("pg_") else { return nil }
        return
            "'schema' cannot be '\(schema)': information_schema, pg_catalog and every pg_ schema belong to PostgreSQL; choose another name, such as feedwork"
    }

    /// Whether `name` is a schema name Feedwork accepts: an unquoted PostgreSQL identifier.
    package static func isSchemaName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, name.utf8.count <= 63 else { return false }
        let lower = "abcdefghijklmnopqrstuvwxyz_"
        return lower.unicodeScalars.contains(first)
            && name.unicodeScalars.allSatisfy { lower.unicodeScalars.contains($0) || ("0"..."9").contains($0) }
    }
}

import FeedKit
import FeedStore
import FeedStorePostgres
import FeedStoreSQLite

/// Where a store is: which driver the text of `store:` names, and that driver's checks of it.
extension StoreFactory {
    /// The drivers, each named by the `store:` texts it claims.
    enum Driver {
        /// A file's path: anything no other driver claims.
        case sqlite
        /// A `postgres://` or `postgresql://` URL.
        case postgres

        /// The driver of the store `store` names.
        init(_ store: String) {
            self = PostgresURL.isPostgres(store) ? .postgres : .sqlite
        }
    }

    /// The store that `store` names (a file's path or a server's URL), its tables in `schema` on
    /// a server (the driver's default when `nil`). It is not checked: ``problems(of:)`` says
    /// what is wrong with it, and the driver refuses it when it opens.
    package static func location(_ store: String, schema: String? = nil) -> StoreLocation {
        switch Driver(store) {
        case .sqlite: StoreLocation(store: store, schema: schema, description: store, filePath: store)
        case .postgres: PostgresURL.location(store, schema: schema)
        }
    }

    /// What is wrong with `location`, before anything opens it: a server's URL without a host or
    /// a database, a schema its server keeps for itself, a path that cannot hold a file, a schema
    /// given to a store without schemas. Each problem says whether `store:` or `schema:` has it.
    package static func problems(of location: StoreLocation) -> [StoreLocation.Problem] {
        switch Driver(location.store) {
        case .sqlite:
            var problems = StorePathCheck.problem(location.store).map { [StoreLocation.Problem($0, at: .store)] } ?? []
            if location.schema != nil {
                problems.append(
                    StoreLocation.Problem(
                        "'schema' applies to a PostgreSQL store (store: postgres://...)", at: .schema))
            }
            return problems
        case .postgres:
            return PostgresURL.problems(of: location)
        }
    }

    /// What is wrong with the names the store at `location` would make for `schema`'s tables,
    /// views and indexes (a limit of its identifiers, a prefix its server keeps), a sentence each;
    /// empty when nothing is.
    package static func nameProblems(_ schema: EntitySchema, in location: StoreLocation) -> [String] {
        switch Driver(location.store) {
        case .sqlite: []
        case .postgres: PostgresNames.problems(schema)
        }
    }

    /// Whether `text` starts like the URL of a store on a server (`postgres://`), whose user and
    /// password are data rather than part of the URL's shape.
    package static func isServerURL(_ text: String) -> Bool {
        Driver(text) != .sqlite
    }
}

import FeedStore
import FeedTestSupport
import Foundation
import Testing

@testable import FeedStorePostgres

/// The PostgreSQL server of the tests: `FEEDWORK_TEST_POSTGRES_URL`, which `.ci/run` sets to a
/// throwaway cluster (`scripts/postgres-throwaway.sh`). Each test works in a schema of its own,
/// dropped at the end.
enum PostgresTestServer {
    static let url = HarnessStore.postgresURL

    /// Why the PostgreSQL tests cannot run here, said loudly: a test failure in CI (which must
    /// have the server), a printed line elsewhere.
    static func reportAbsence() {
        let message = HarnessStore.absenceMessage
        if ProcessInfo.processInfo.environment["CI"] != nil {
            Issue.record(Comment(rawValue: message))
        } else {
            print("PostgreSQL tests skipped: \(message)")
        }
    }

    /// Runs `body` with a connection whose `search_path` is a new schema, dropped afterwards;
    /// reports the server's absence instead when there is none.
    static func withSchema(_ body: (PostgresConnection, String) throws -> Void) throws {
        guard let url else { return reportAbsence() }
        let connection = try PostgresConnection(url: url)
        let schema = HarnessStore.schemaName("test")
        try connection.execute("CREATE SCHEMA \(schema)")
        defer { _ = try? connection.execute("DROP SCHEMA \(schema) CASCADE") }
        try connection.execute("SET search_path TO \(schema)")
        try body(connection, schema)
    }

    /// Runs `body` with a store in a new schema, dropped afterwards; reports the server's
    /// absence instead when there is none.
    static func withStore(_ body: (Store, String) async throws -> Void) async throws {
        guard let url else { return reportAbsence() }
        let schema = HarnessStore.schemaName("test")
        defer { _ = try? PostgresConnection(url: url).execute("DROP SCHEMA \(schema) CASCADE") }
        try await body(Store(try PostgresStore(url: url, schema: schema)), schema)
    }
}

extension Store {
    /// The PostgreSQL driver under a test's store, for what only the driver has (its pool, its
    /// connections).
    var postgres: PostgresStore {
        get throws {
            guard let driver = driver as? PostgresStore else {
                throw StoreError(path: location, message: "not a PostgreSQL store")
            }
            return driver
        }
    }
}

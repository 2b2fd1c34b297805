import Foundation

/// The store a ``FeedHarness`` runs its feeds into, so one test can run on each:
///
/// ```swift
/// @Test(arguments: HarnessStore.available)
/// func replaceDeletesRowsThePassDidNotDeliver(store: HarnessStore) async throws {
///     let harness = try FeedHarness(registry: registry, yaml: yaml, store: store)
///     ...
/// }
/// ```
public enum HarnessStore: String, Sendable, CustomStringConvertible {
    /// `feeds.sqlite` in the harness's folder (the default).
    case sqlite
    /// A schema of its own on the server of `FEEDWORK_TEST_POSTGRES_URL`, dropped with the
    /// harness.
    case postgres

    public var description: String { rawValue }

    /// The PostgreSQL server of the tests: `FEEDWORK_TEST_POSTGRES_URL` (`.ci/run` starts a
    /// throwaway cluster and sets it).
    public static let postgresURL = ProcessInfo.processInfo.environment["FEEDWORK_TEST_POSTGRES_URL"]

    /// Why the PostgreSQL tests cannot run, and how to start a server for them.
    public static let absenceMessage =
        "FEEDWORK_TEST_POSTGRES_URL is not set; start a server with "
        + "`eval \"$(bash scripts/postgres-throwaway.sh start)\"` (needs Debian's postgresql package)"

    /// A new schema name for one test: `prefix` and 32 hex digits.
    public static func schemaName(_ prefix: String) -> String {
        prefix + "_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
    }

    /// The stores to run a store-level test on: both. Without a server outside CI, SQLite
    /// alone, and a line saying so; in CI (`CI` set) PostgreSQL stays, so its tests fail loudly
    /// when the server is missing.
    public static let available: [HarnessStore] = {
        if postgresURL != nil || ProcessInfo.processInfo.environment["CI"] != nil { return [.sqlite, .postgres] }
        print("PostgreSQL cases of the store-level tests skipped: \(absenceMessage)")
        return [.sqlite]
    }()
}

/// Why a ``FeedHarness`` could not be set up.
public struct HarnessError: Error, CustomStringConvertible {
    public var description: String

    public static let noPostgres = HarnessError(
        description: "a PostgreSQL test cannot run: \(HarnessStore.absenceMessage)")
}

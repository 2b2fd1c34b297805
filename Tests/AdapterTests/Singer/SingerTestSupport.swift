import FeedEngine
import FeedKit
import FeedTestSupport
import Foundation
import SingerFeed

/// Helpers shared by the singer adapter's suites: fake taps are the Python scripts of
/// `Fixtures/singer`, run with `python3`.
enum SingerFeedTest {
    static let registry = AdapterRegistry([SingerAdapter.self])

    /// The path of a fixture tap (`good_tap.py`).
    static func tap(_ name: String) -> String { TestFixtures.directory.appendingPathComponent("singer/\(name)").path }

    /// A harness with one singer feed named `taps` running `python3 <script> arguments...`;
    /// `body` holds more of the feed's keys, indented by 4.
    static func harness(
        _ script: String, arguments: [String] = [], _ body: String = "", environment: [String: String] = [:],
        driver: HarnessStore = .sqlite
    ) throws -> FeedHarness {
        try FeedHarness(
            registry: registry, yaml: yaml(script, arguments: arguments, body), environment: environment, store: driver)
    }

    /// feeds.yaml with the feed of ``harness(_:arguments:_:environment:)``.
    static func yaml(_ script: String, arguments: [String] = [], _ body: String = "") -> String {
        let command = (["python3", tap(script)] + arguments).map { "\"\($0)\"" }.joined(separator: ", ")
        return """
            feeds:
              - name: taps
                adapter: singer
                command: [\(command)]
            \(body)
            """
    }

    /// Every row of every table of the store that a pass may change, as text: to compare a store
    /// before and after a pass that must change nothing.
    static func snapshot(_ harness: FeedHarness) async throws -> [String] {
        let bookkeeping = ["_runs", "sqlite_sequence", "grdb_migrations", "_migrations"]
        let tables = try await harness.tableNames().filter { !bookkeeping.contains($0) }
        var lines: [String] = ["tables: " + tables.joined(separator: ",")]
        for table in tables {
            for row in try await harness.rows("SELECT * FROM \"\(table)\"") {
                lines.append(
                    table + ": " + row.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
                )
            }
        }
        return lines.sorted()
    }

    /// The text value of `column` in each row.
    static func texts(_ rows: [[String: FieldValue]], _ column: String) -> [String] {
        rows.map { $0[column]?.description ?? "<none>" }
    }
}

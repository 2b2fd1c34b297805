import FeedEngine
import FeedFixtures
import FeedKit
import FeedTestSupport
import Foundation
import JSONFeed
import Synchronization

/// Helpers shared by the json adapter's suites.
enum JSONFeedTest {
    static let registry = AdapterRegistry([JSONAdapter.self])

    /// A harness with one json feed named `items`, stored on `driver`; `body` holds the feed's
    /// keys, indented by 4.
    static func harness(
        url: String, _ body: String, files: [String: Data] = [:], environment: [String: String] = [:],
        driver: HarnessStore = .sqlite
    ) throws -> FeedHarness {
        try FeedHarness(
            registry: registry,
            yaml: """
                feeds:
                  - name: items
                    adapter: json
                    url: \(url)
                    retries: 0
                \(body)
                """, files: files, environment: environment, store: driver)
    }

    /// `{"id": N, "name": "item-N"}` objects for ids in `range`, as a JSON list.
    static func items(_ range: Range<Int>) -> String {
        "[" + range.map { #"{"id":\#($0),"name":"item-\#($0)"}"# }.joined(separator: ",") + "]"
    }

    /// The integer value of `column` in each row.
    static func integers(_ rows: [[String: FieldValue]], _ column: String) -> [Int64] {
        rows.compactMap { if case .integer(let value)? = $0[column] { value } else { nil } }
    }

    /// Each reject of the store, in order, as `path: reason`.
    static func rejects(_ harness: FeedHarness) async throws -> [String] {
        try await harness.rows("SELECT path, reason FROM _rejects ORDER BY id").map { row in
            "\(row["path"]?.description ?? ""): \(row["reason"]?.description ?? "")"
        }
    }

    /// The text value of `column` in each row.
    static func texts(_ rows: [[String: FieldValue]], _ column: String) -> [String] {
        rows.compactMap { if case .text(let value)? = $0[column] { value } else { nil } }
    }
}

extension FeedReport {
    /// Whether a note contains `text`.
    func hasNote(_ text: String) -> Bool { notes.contains { $0.contains(text) } }
}

/// A value shared between a test and its server's handler threads.
final class Shared<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>

    init(_ value: Value) { mutex = Mutex(value) }

    var value: Value { mutex.withLock { $0 } }

    func set(_ value: Value) { mutex.withLock { $0 = value } }
}

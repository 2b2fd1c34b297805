import FeedEngine
import FeedKit
import FeedStoreDrivers
import Foundation

/// The outcome of replaying one ``FixtureSuite``.
public struct FixtureResult: Sendable {
    public var suite: String
    /// Feeds that failed during the replay, with their errors (a request with no recording
    /// among them).
    public var failures: [String]
    public var mismatches: [FixtureMismatch]
    /// Whether the expected files were rewritten (`--update`).
    public var updated: Bool

    public var passed: Bool { failures.isEmpty && mismatches.isEmpty }
}

/// Replays fixture suites through the real ``Engine``, offline, and compares what they produce
/// with their expected records.
///
/// Each replay runs against a new temporary store with a ``ReplayFetcher``, starts its passes at
/// the recording's ``FixtureRecording/startedAt`` and delivers no outbox events. The produced
/// rows of the suite's feeds and their rejects are read back as a ``RecordSnapshot``, secrets
/// redacted, and compared field by field with `expected/`, or written there when updating.
public struct FixtureRunner: Sendable {
    public init() {}

    /// Replays `suite`; with `update`, rewrites its expected files instead of comparing (unless a
    /// feed failed, which leaves them untouched).
    ///
    /// - Throws: ``FixtureError`` when the suite's files cannot be read or written, or the
    ///   temporary store cannot be made.
    public func run(_ suite: FixtureSuite, update: Bool = false) async throws -> FixtureResult {
        let recording = try FixtureRecording.read(from: suite.directory)
        let (snapshot, failures) = try await replay(recording, config: suite.config, feeds: suite.feeds)
        var result = FixtureResult(suite: suite.name, failures: failures, mismatches: [], updated: false)
        guard failures.isEmpty else { return result }
        if update {
            try ExpectedRecords.write(snapshot, to: suite.directory)
            result.updated = true
        } else {
            let expected = try ExpectedRecords.read(from: suite.directory)
            result.mismatches = FixtureComparison.compare(expected: expected, actual: snapshot)
        }
        return result
    }

    /// Replays `recording` for `feeds` of `config` and returns what they produced (secrets
    /// redacted) and the errors of the feeds that failed; compares nothing.
    ///
    /// Conformance tests use it over payloads kept elsewhere than a suite folder.
    public func replay(_ recording: FixtureRecording, config: FeedsConfig, feeds: [String]) async throws
        -> (snapshot: RecordSnapshot, failures: [String])
    {
        try await Self.produce(
            config: config, feeds: feeds, fetcher: ReplayFetcher(recording: recording), startDate: recording.startedAt)
    }

    /// Runs `feeds` of `config` through `fetcher` against a temporary store and returns what they
    /// produced (redacted) and the errors of the feeds that failed.
    static func produce(config: FeedsConfig, feeds: [String], fetcher: any Fetching, startDate: Date) async throws
        -> (snapshot: RecordSnapshot, failures: [String])
    {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "feedwork-fixtures-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let storePath = folder.appendingPathComponent("replay.sqlite").path
        let engine = try await Engine.open(
            config, fetcher: fetcher, storePath: storePath, startDate: startDate, deliversOutbox: false)
        let report = await engine.run(feeds: feeds)
        let store = try StoreFactory.reading(StoreLocation(storePath), redactor: Redactor())
        let failures = report.feeds.filter { $0.status == .failed }.map {
            "feed \($0.feed): \($0.error ?? "failed")"
        }
        let selected = config.feeds.filter { feeds.contains($0.name) }
        let snapshot = try await RecordSnapshot.read(from: store, feeds: selected).redacted(with: config.redactor)
        return (snapshot, failures)
    }
}

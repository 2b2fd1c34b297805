import FeedEngine
import FeedKit
import Foundation

/// Records a feed's live requests once and writes them as a fixture suite, so a new feed gets
/// a regression test in one command (`feedwork record FEED`).
///
/// The feed runs through the real ``Engine`` against a temporary store, with a
/// ``RecordingFetcher`` around the live fetcher. The suite folder then holds:
/// - `feed.yaml`: the feed's block of the config as written, so secrets stay `${VAR}`;
/// - `responses.json` and `responses/`: the responses, secrets replaced by `***`;
/// - `expected/`: what the run produced, secrets replaced too.
///
/// Before returning, every file written is checked for the config's secrets; finding one
/// removes the suite and throws.
public struct FixtureRecorder: Sendable {
    /// The fetcher that performs the live requests.
    public var upstream: any Fetching
    /// The moment a recording starts at (``FixtureRecording/startedAt``, whole seconds), which
    /// is "now" for its passes; tests set it to record as of another day.
    public var clock: @Sendable () -> Date

    public init(upstream: any Fetching = StandardFetcher(), clock: @escaping @Sendable () -> Date = { Date() }) {
        self.upstream = upstream
        self.clock = clock
    }

    /// Records `feed` of `config` into `directory`, created when missing.
    ///
    /// - Parameter configText: the config file's text, for the feed's block as written.
    /// - Returns: the number of responses recorded.
    /// - Throws: ``FixtureError`` when the feed fails (nothing is written) or a file cannot be written.
    @discardableResult
    public func record(feed: String, config: FeedsConfig, configText: String, to directory: URL) async throws -> Int {
        let startedAt = Date(timeIntervalSince1970: clock().timeIntervalSince1970.rounded(.down))
        let recorder = RecordingFetcher(upstream: upstream)
        let (snapshot, failures) = try await FixtureRunner.produce(
            config: config, feeds: [feed], fetcher: recorder, startDate: startedAt)
        guard failures.isEmpty else {
            throw FixtureError("nothing recorded: \(failures.joined(separator: "; "))")
        }
        let header = """
            Recorded by `feedwork record \(feed)` at \(Timestamp.string(startedAt)).
            Secrets are ${VAR} here and *** in the responses; `feedwork test` needs none of them.
            """
        let yaml = try FeedBlock.suiteConfig(feed: feed, from: configText, header: header)
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try Data(yaml.utf8).write(
                to: directory.appendingPathComponent(FixtureSuite.configFile), options: .atomic)
        } catch {
            throw FixtureError("cannot write the suite into \(directory.path): \(error)")
        }
        let responses = recorder.responses
        try FixtureRecording(startedAt: startedAt, responses: responses).write(to: directory)
        try ExpectedRecords.write(snapshot, to: directory)
        if let leak = Self.firstLeak(in: directory, redactor: config.redactor) {
            try? FileManager.default.removeItem(at: directory)
            throw FixtureError("a secret was found in \(leak); the recording was removed")
        }
        return responses.count
    }

    /// The first file under `directory` whose bytes contain a secret of `redactor`.
    static func firstLeak(in directory: URL, redactor: Redactor) -> String? {
        let secrets = redactor.secrets.filter { $0 != ConfigLoader.placeholder }.map { Data($0.utf8) }
        guard !secrets.isEmpty,
            let files = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil)
        else { return nil }
        for case let file as URL in files {
            guard let data = try? Data(contentsOf: file) else { continue }
            if secrets.contains(where: { data.range(of: $0) != nil }) { return file.path }
        }
        return nil
    }
}

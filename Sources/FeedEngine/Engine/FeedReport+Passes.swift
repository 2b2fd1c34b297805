import Foundation

extension FeedReport {
    /// One report for the passes a feed ran one after another in one run, each committed on its
    /// own (a backfill in date windows, see ``FeedKit/FeedPass/continueAfterCommit()``): the
    /// counts, requests and bytes summed; the last pass's run id, and its status and error when
    /// it did not commit (else the worst of theirs: stale, then with rejects); a first note
    /// naming the runs, then every pass's notes in order, each once.
    ///
    /// - Parameter milliseconds: from the first pass's start to the last one's end.
    /// - Returns: `nil` for no pass.
    static func summing(_ passes: [FeedReport], milliseconds: Int) -> FeedReport? {
        guard var report = passes.last else { return nil }
        report.milliseconds = milliseconds
        guard passes.count > 1 else { return report }
        let committed = passes.filter(\.letsDependentsRun)
        if report.letsDependentsRun {
            report.status =
                committed.contains { $0.status == .stale }
                ? .stale : committed.contains { $0.status == .okWithRejects } ? .okWithRejects : .ok
        }
        report.counts = passes.map(\.counts).reduce(WriteCounts(), +)
        report.requests = passes.map(\.requests).reduce(0, +)
        report.attempts = passes.map(\.attempts).reduce(0, +)
        report.bytes = passes.map(\.bytes).reduce(0, +)
        report.staleURLs = passes.flatMap(\.staleURLs)
        report.staleAgeSeconds = passes.compactMap(\.staleAgeSeconds).max()
        report.outboxDelivered = passes.map(\.outboxDelivered).reduce(0, +)
        let media = passes.compactMap(\.media)
        report.media = media.isEmpty ? nil : media.dropFirst().reduce(media[0], +)
        report.earlierCommits = committed.count - (report.letsDependentsRun ? 1 : 0)
        let runs = committed.compactMap(\.run)
        let named = runs.count == 1 ? "run \(runs[0])" : "runs \(runs.first ?? 0) to \(runs.last ?? 0)"
        let summary =
            report.letsDependentsRun
            ? "committed in \(passes.count) passes, one after another (\(named)), each with its own transaction"
            : "\(committed.count) pass(es) committed first (\(named)), each with its own transaction; "
                + "the next run goes on after them"
        var seen: Set<String> = []
        report.notes = [summary] + passes.flatMap(\.notes).filter { seen.insert($0).inserted }
        return report
    }
}

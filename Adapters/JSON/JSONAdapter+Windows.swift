import FeedKit

extension JSONAdapter {
    /// The `_state` key that holds how many windows the backfill under way has committed; it
    /// is removed once no window is left.
    static let windowsDoneStateKey = "window.done"

    /// Walks the pass's date windows (``DateWindow``) one after another, moving the cursor to
    /// each window's end once its pages are written, and says in the report how many were read
    /// and how many are left. When windows are left, it asks the engine for the next pass once
    /// this one commits.
    func runWindows(
        _ cursor: IncrementalCursor, from stored: IncrementalCursor.Mark?, pages: PageProcessor,
        totals: inout WalkTotals, in pass: FeedPass
    ) async throws {
        let done = try await pass.state(Self.windowsDoneStateKey).flatMap { Int($0) }
        let plan: (windows: [DateWindow], left: Int)
        do {
            plan = try cursor.windows(stored: stored, now: pass.startedAt, resuming: stored != nil && done != nil)
        } catch {
            throw WindowError(feed: pass.feed, message: error.message)
        }
        let before = stored == nil ? 0 : done ?? 0
        let total = before + plan.windows.count + plan.left
        var pages = pages
        for (index, window) in plan.windows.enumerated() {
            let bounds = cursor.values(of: window)
            let number = before + index + 1
            pass.showProgress("window \(number) of \(total), \(before) committed")
            pass.log(
                "window \(number) of \(total): \(bounds["window.start"] ?? "") to \(bounds["window.end"] ?? "")",
                level: .info)
            pages.requests = requests.rendered(
                now: pass.startedAt, cursor: cursor, sending: bounds["window.start"], window: window,
                session: pages.requests.session)
            var walk = PageWalk(pass: pass, processor: pages, mode: mode)
            try await walk.run()
            totals.add(walk)
            // Stored as ISO 8601, like every cursor: the window's end is where the next one starts.
            try await pass.setState(FeedPass.cursorStateKey, TimestampFormat.render(microseconds: window.end))
        }
        guard let first = plan.windows.first, let last = plan.windows.last else {
            if done != nil { try await pass.setState(Self.windowsDoneStateKey, nil) }
            pass.note("incremental: no window to read (the cursor is at the range's end)")
            return
        }
        let range =
            "\(TimestampFormat.render(microseconds: first.start)) to \(TimestampFormat.render(microseconds: last.end))"
        var left = ""
        if plan.left > 0 {
            // The next pass starts at this one's last end, past where this one started.
            try await pass.setState(Self.windowsDoneStateKey, String(before + plan.windows.count))
            pass.continueAfterCommit()
            left = "; \(plan.left) window(s) left for the next passes"
        } else if done != nil {
            try await pass.setState(Self.windowsDoneStateKey, nil)
        }
        let numbers =
            plan.windows.count == 1 ? "window \(before + 1)" : "windows \(before + 1) to \(before + plan.windows.count)"
        pass.note(
            "incremental: read \(numbers) of \(total) (\(cursor.window?.description ?? "")), \(range); cursor now \(TimestampFormat.render(microseconds: last.end))\(left)"
        )
    }
}

/// What the walks of one pass add up to (one walk, or one per date window).
struct WalkTotals {
    var skippedPages = 0
    var skippedRecords = 0
    var filteredOut = 0
    var deletions = 0
    var walkedKeys: Set<String> = []
    /// Why the walks ended.
    var ends = WalkEnds()

    mutating func add(_ walk: PageWalk) {
        skippedPages += walk.skippedPages
        skippedRecords += walk.skippedRecords
        filteredOut += walk.filteredOut
        deletions += walk.deletions
        walkedKeys.formUnion(walk.walkedKeys)
        ends.add(walk)
    }

    /// Adds the walks of a `for_each:` pass, one per parent.
    mutating func add(_ outcome: ParentFollower.Outcome) {
        skippedPages += outcome.skippedPages
        skippedRecords += outcome.skippedRecords
        filteredOut += outcome.filteredOut
        walkedKeys.formUnion(outcome.walkedKeys)
        ends.add(outcome.ends)
    }
}

/// A window's bound that does not render as a timestamp.
struct WindowError: Error, CustomStringConvertible {
    var feed: String
    var message: String
    var description: String { "feed '\(feed)': incremental: \(message)" }
}

import FeedKit
import Foundation

/// `incremental: {window: 7d}`: a pass reads its range in windows, for APIs that refuse a
/// query over a range longer than their cap (Airbyte's `DatetimeBasedCursor` steps the same
/// way).
///
/// The range runs from the stored cursor (less `lag`, unless a backfill is under way), or
/// `start` on the first pass, to `end` (rendered at the pass's start) or the pass's start
/// itself. Each window `[a, b)` (or `[a, b - 1 unit]` with `window_end: inclusive`) is walked with `{{window.start}}`/`{{cursor}}`/`param` as `a`
/// and `{{window.end}}`/`end_param` as `b`, written in the cursor's format, and the cursor then
/// moves to `b` in `_state`, in the pass's transaction. A pass reads `windows_per_pass` windows
/// (1 by default) and commits them; when windows are left, it asks the engine for the next pass
/// at once (``FeedKit/FeedPass/continueAfterCommit()``), so one `feedwork run` commits a
/// backfill window by window and an interrupted one resumes at the first window not committed.
/// The last window's end is the next pass's cursor, so once the backfill is done each pass
/// reads only the time since the last one.
struct DateWindow: Sendable, Hashable {
    /// Microseconds since 1970: `[start, end)`.
    var start: Int64
    var end: Int64
}

extension IncrementalCursor {
    /// The names of the window's bounds in templates.
    static let windowValueNames: Set<String> = ["window.start", "window.end"]

    /// The problems of `window:` and `windows_per_pass:`.
    ///
    /// - Parameter format: how the cursor is sent, in which `start` and `end` may be written.
    static func checkWindow(
        _ spec: JSONAdapter.IncrementalSpec, kind: Kind?, format: TimestampFormat, errors: inout OptionError.List
    ) {
        let at = ["incremental"]
        if let window = spec.window {
            if window.milliseconds < 1000 {
                errors.append(OptionError("window must be at least 1s", at: at + ["window"]))
            }
            if kind != nil, kind != .timestamp {
                errors.append(OptionError("window applies to timestamp cursors only", at: at + ["window"]))
            }
            if spec.start == nil {
                errors.append(
                    OptionError(
                        "window needs start, where the first pass's windows begin (\"2025-01-01T00:00:00Z\" or \"{{today-90d|iso}}\")",
                        at: at + ["window"]))
            }
            if spec.order == "desc" {
                errors.append(
                    OptionError(
                        "order: desc cannot be combined with window, which reads each window whole", at: at + ["order"])
                )
            }
        }
        checkWindowEnd(spec, format: format, errors: &errors)
        if let perPass = spec.windowsPerPass {
            if spec.window == nil {
                errors.append(OptionError("windows_per_pass needs window", at: at + ["windows_per_pass"]))
            } else if perPass < 1 {
                errors.append(OptionError("windows_per_pass must be at least 1", at: at + ["windows_per_pass"]))
            }
        }
        for (value, key) in [(spec.start, "start"), (spec.end, "end")] {
            guard spec.window != nil, let value else { continue }
            // Only the shape matters here: a template rendered at any instant reads the same way.
            let sample = value.render(now: Date(timeIntervalSince1970: 0))
            if timestamp(sample, format: format) == nil {
                errors.append(
                    OptionError(
                        "\(key) '\(value.source)' is not a timestamp; with window it must be one (ISO 8601 or the cursor's format)",
                        at: at + [key]))
            }
        }
    }

    /// Microseconds since 1970 of `text`, in `format` or in ISO 8601.
    static func timestamp(_ text: String, format: TimestampFormat) -> Int64? {
        format.microseconds(of: text) ?? TimestampFormat.iso8601.microseconds(of: text)
    }

    /// The windows one pass reads, and how many are left for later passes.
    ///
    /// - Parameter resuming: whether the stored cursor is where a backfill under way stopped
    ///   (windows were left after the last pass): its windows then go on from the cursor itself,
    ///   without `lag`, so none is read twice.
    /// - Throws: ``OptionError`` when `start` or `end` does not render as a timestamp.
    func windows(stored: Mark?, now: Date, resuming: Bool = false) throws(OptionError) -> (
        windows: [DateWindow], left: Int
    ) {
        guard let window else { return ([], 0) }
        let step = window.milliseconds * 1000
        let from: Int64
        if let stored, let micro = TimestampFormat.microseconds(ofStored: stored.text) {
            from = micro - (resuming ? 0 : lag.milliseconds * 1000)
        } else {
            let text = start?.render(now: now) ?? ""
            guard let micro = Self.timestamp(text, format: format) else {
                throw OptionError("start '\(text)' is not a timestamp", at: ["incremental", "start"])
            }
            from = micro
        }
        let until: Int64
        if let end {
            let text = end.render(now: now)
            guard let micro = Self.timestamp(text, format: format) else {
                throw OptionError("end '\(text)' is not a timestamp", at: ["incremental", "end"])
            }
            until = micro
        } else {
            until = Int64((now.timeIntervalSince1970 * 1_000_000).rounded(.down))
        }
        var all: [DateWindow] = []
        var cursor = from
        while cursor < until {
            let next = min(cursor + step, until)
            all.append(DateWindow(start: cursor, end: next))
            cursor = next
        }
        let taken = Array(all.prefix(windowsPerPass))
        return (taken, all.count - taken.count)
    }

    /// The values of `window` in templates, written in the cursor's format; with
    /// `window_end: inclusive`, the end is the last instant the format can say before it.
    func values(of window: DateWindow) -> [String: String] {
        let end = windowEndInclusive ? window.end - (format.resolution ?? 0) : window.end
        return ["window.start": format.text(microseconds: window.start), "window.end": format.text(microseconds: end)]
    }
}

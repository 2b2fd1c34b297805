import FeedKit
import Foundation

/// A feed's incremental cursor, compiled from ``JSONAdapter/IncrementalSpec``: the field it
/// follows, what a pass sends, and how values compare.
///
/// Each pass sends the greatest value committed so far (less `lag` for timestamps), or `start`
/// when there is none, and stores the greatest value among the records it writes in `_state`
/// under ``FeedPass/cursorStateKey``, in the pass's transaction: a failed pass leaves it where
/// it was. It never moves back, even when an API returns older records (they are merged all
/// the same).
struct IncrementalCursor: Sendable {
    enum Kind: String, Sendable { case timestamp, int, string }

    /// A cursor value with the text it is stored as; compared by value.
    struct Mark: Sendable, Comparable {
        enum Value: Sendable, Comparable {
            case time(Double)
            case int(Int64)
            case text(String)
        }

        var value: Value
        var text: String

        static func < (lhs: Mark, rhs: Mark) -> Bool { lhs.value < rhs.value }
        static func == (lhs: Mark, rhs: Mark) -> Bool { lhs.value == rhs.value }
    }

    let field: String
    /// The field's index in the records' values.
    let column: Int
    let kind: Kind
    let param: String?
    let start: TemplatedString?
    let lag: FeedDuration
    let end: TemplatedString?
    let endParam: String?
    let descending: Bool
    /// `window:`, the length of the windows a pass reads its range in
    /// (``windows(stored:now:resuming:)``).
    let window: FeedDuration?
    /// `windows_per_pass:`, the most windows a pass reads and commits; 1 by default.
    let windowsPerPass: Int
    /// How a timestamp cursor is sent: `format:` of the block, else the cursor field's own
    /// format (what the API writes is what it reads), else ISO 8601.
    let format: TimestampFormat
    /// `window_end: inclusive`: each window's end is sent one unit of `format` before the
    /// next window's start (``values(of:)``).
    var windowEndInclusive = false

    /// Checks `spec` against the declared fields; reports every problem at once.
    init(
        _ spec: JSONAdapter.IncrementalSpec, fields: OrderedMapping<JSONAdapter.FieldSpec>, schema: EntitySchema
    ) throws(OptionError.List) {
        let at = ["incremental"]
        var errors = OptionError.List()
        let declared =
            fields.entries.first { $0.key == spec.cursorPath }
            ?? fields.entries.first { $0.value.path == spec.cursorPath }
        var kind: Kind?
        if let (name, field) = declared {
            kind = Kind(rawValue: field.type)
            if kind == nil {
                errors.append(
                    OptionError(
                        "cursor_path '\(spec.cursorPath)' is the \(field.type) field '\(name)'; a cursor is a timestamp, int or string field",
                        at: at + ["cursor_path"]))
            }
        } else {
            let names = fields.entries.map(\.key).joined(separator: ", ")
            errors.append(
                OptionError(
                    "cursor_path '\(spec.cursorPath)' is not a declared field; declare it under fields (a timestamp, int or string), or use one of: \(names)",
                    at: at + ["cursor_path"]))
        }
        if let param = spec.param, param.isEmpty {
            errors.append(OptionError("param must not be empty", at: at + ["param"]))
        }
        if spec.lag != nil, kind != nil, kind != .timestamp {
            errors.append(OptionError("lag applies to timestamp cursors only", at: at + ["lag"]))
        }
        var format: TimestampFormat? = .iso8601
        if let option = spec.format {
            format = TimestampFormat(option: option)
            if format == nil {
                errors.append(
                    OptionError(
                        "format must be iso, unix, unix_ms or a pattern with yyyy, MM, dd (and HH, mm, ss), not '\(option)'",
                        at: at + ["format"]))
            } else if kind != nil, kind != .timestamp {
                errors.append(OptionError("format applies to timestamp cursors only", at: at + ["format"]))
            }
        } else if kind == .timestamp, let own = declared?.value.format {
            // Checked with the field; a format that does not read leaves ISO 8601 here.
            format = TimestampFormat(option: own) ?? .iso8601
        }
        let order = spec.order ?? "asc"
        if order != "asc" && order != "desc" {
            errors.append(OptionError("order must be asc or desc, not '\(order)'", at: at + ["order"]))
        }
        switch (spec.end, spec.endParam, spec.window) {
        case (nil, nil, _), (_?, _?, _), (nil, _?, _?), (_?, nil, _?): break
        case (_?, nil, nil):
            errors.append(OptionError("end needs end_param, the parameter it is sent in", at: at + ["end"]))
        case (nil, _?, nil):
            errors.append(OptionError("end_param needs end, the window's end", at: at + ["end_param"]))
        }
        Self.checkWindow(spec, kind: kind, format: format ?? .iso8601, errors: &errors)
        try errors.throwIfAny()
        guard let (name, _) = declared, let kind, let format,
            let column = schema.columns.firstIndex(where: { $0.name == name })
        else { throw errors }
        self.field = name
        self.column = column
        self.kind = kind
        self.param = spec.param
        self.start = spec.start
        self.lag = spec.lag ?? .milliseconds(0)
        self.end = spec.end
        self.endParam = spec.endParam
        self.descending = order == "desc"
        self.window = spec.window
        self.windowsPerPass = spec.windowsPerPass ?? 1
        self.format = format
        self.windowEndInclusive = spec.windowEnd == "inclusive"
    }

    /// The cursor value of `record`; `nil` when its field is null.
    func mark(of record: EntityRecord) -> Mark? {
        guard column < record.values.count else { return nil }
        return mark(of: record.values[column])
    }

    /// The cursor value of a value of the cursor's field; `nil` when it is null.
    func mark(of value: FieldValue) -> Mark? {
        switch (kind, value) {
        case (.timestamp, .text(let text)): return ISO8601.parse(text).map { Mark(value: .time($0), text: text) }
        case (.int, .integer(let number)): return Mark(value: .int(number), text: String(number))
        case (.string, .text(let text)): return Mark(value: .text(text), text: text)
        default: return nil
        }
    }

    /// A stored cursor read back; `nil` when the text no longer reads as one (the field's type
    /// changed), so that the pass starts from `start`.
    func mark(stored text: String) -> Mark? {
        switch kind {
        case .timestamp: ISO8601.parse(text).map { Mark(value: .time($0), text: text) }
        case .int: Int64(text).map { Mark(value: .int($0), text: text) }
        case .string: Mark(value: .text(text), text: text)
        }
    }

    /// What a pass sends: the stored cursor less `lag`, or `start` rendered at `now`. A
    /// timestamp cursor is sent in ``format``: as ISO 8601, the stored text itself (fraction
    /// included) when there is no lag; other formats cut what they cannot say.
    func sentValue(stored: Mark?, now: Date) -> String? {
        guard let stored else { return start?.render(now: now) }
        guard case .time(let seconds) = stored.value else { return stored.text }
        if format == .iso8601, lag.milliseconds == 0 { return stored.text }
        // Exact, to the microsecond: a cursor sent a fraction early re-reads its records every pass.
        let sent =
            TimestampFormat.microseconds(ofStored: stored.text).map { $0 - lag.milliseconds * 1000 }
            ?? Int64((seconds * 1_000_000).rounded(.down)) - lag.milliseconds * 1000
        return format.text(microseconds: sent)
    }

    /// `sent` as a mark, to compare records with when paging stops early (`order: desc`).
    func mark(sent text: String) -> Mark? {
        guard kind == .timestamp else { return mark(stored: text) }
        return format.microseconds(of: text).map { Mark(value: .time(Double($0) / 1_000_000), text: text) }
    }
}

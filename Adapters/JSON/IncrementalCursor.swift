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
    enum SendFormat: String, Sendable { case iso, unix, unixMilliseconds = "unix_ms" }

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
    let format: SendFormat

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
        let format = SendFormat(rawValue: spec.format ?? "iso")
        if format == nil {
            errors.append(
                OptionError("format must be iso, unix or unix_ms, not '\(spec.format ?? "")'", at: at + ["format"]))
        } else if spec.format != nil, kind != nil, kind != .timestamp {
            errors.append(OptionError("format applies to timestamp cursors only", at: at + ["format"]))
        }
        let order = spec.order ?? "asc"
        if order != "asc" && order != "desc" {
            errors.append(OptionError("order must be asc or desc, not '\(order)'", at: at + ["order"]))
        }
        switch (spec.end, spec.endParam) {
        case (nil, nil), (_?, _?): break
        case (_?, nil): errors.append(OptionError("end needs end_param, the parameter it is sent in", at: at + ["end"]))
        case (nil, _?): errors.append(OptionError("end_param needs end, the window's end", at: at + ["end_param"]))
        }
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
        self.format = format
    }

    /// The cursor value of `record`; `nil` when its field is null.
    func mark(of record: EntityRecord) -> Mark? {
        guard column < record.values.count else { return nil }
        switch (kind, record.values[column]) {
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
    /// timestamp cursor sent as `iso` is the stored text itself (fraction included) when there
    /// is no lag; `unix` and `unix_ms` cut what their unit cannot say.
    func sentValue(stored: Mark?, now: Date) -> String? {
        guard let stored else { return start?.render(now: now) }
        guard case .time(let seconds) = stored.value else { return stored.text }
        // Exact, to the microsecond: a cursor sent a fraction early re-reads its records every pass.
        let sent =
            TimestampFormat.microseconds(ofStored: stored.text).map { $0 - lag.milliseconds * 1000 }
            ?? Int64((seconds * 1_000_000).rounded(.down)) - lag.milliseconds * 1000
        func floor(_ value: Int64, _ unit: Int64) -> Int64 { value >= 0 ? value / unit : (value - unit + 1) / unit }
        switch format {
        case .iso: return lag.milliseconds == 0 ? stored.text : TimestampFormat.render(microseconds: sent)
        case .unix: return String(floor(sent, 1_000_000))
        case .unixMilliseconds: return String(floor(sent, 1000))
        }
    }

    /// `sent` as a mark, to compare records with when paging stops early (`order: desc`).
    func mark(sent text: String) -> Mark? {
        guard kind == .timestamp else { return mark(stored: text) }
        switch format {
        case .iso: return mark(stored: text)
        case .unix: return Double(text).map { Mark(value: .time($0), text: text) }
        case .unixMilliseconds: return Double(text).map { Mark(value: .time($0 / 1000), text: text) }
        }
    }
}

import FeedKit
import Foundation

/// The `filter:` of a json feed: conditions on mapped fields, all of which a record must meet
/// to be stored (`["published_at>={{today-30d|yyyy-MM-dd}}", "status=open"]`), for APIs that
/// cannot be asked for a window themselves.
///
/// The grammar and the comparisons are those of `feedwork export --where` (``FieldCondition``);
/// values may hold date templates, rendered with the pass's `startedAt`. Records filtered out
/// are counted in a note, neither stored nor rejected.
struct RecordFilter: Sendable {
    struct Condition: Sendable {
        /// The condition as written, its value still a template.
        var condition: FieldCondition
        var value: TemplatedString
        /// The field's index in the schema's columns, and its type.
        var column: Int
        var type: ColumnType
    }

    let conditions: [Condition]

    /// No condition: every record is kept.
    static let none = RecordFilter(conditions: [])

    private init(conditions: [Condition]) { self.conditions = conditions }

    /// Checks each condition against `schema`: its grammar, its field (a scalar field of the
    /// entity) and its value, which must read as the field's type (templates rendered at an
    /// arbitrary instant, since only their shape matters here).
    ///
    /// - Throws: ``OptionError/List`` at `filter.<index>` for each condition at fault.
    init(_ texts: [String], schema: EntitySchema) throws(OptionError.List) {
        var errors = OptionError.List()
        var conditions: [Condition] = []
        for (index, text) in texts.enumerated() {
            let at = ["filter", String(index)]
            let condition: FieldCondition
            do {
                condition = try FieldCondition(parsing: text)
            } catch {
                errors.append(OptionError("filter \(error.message)", at: at))
                continue
            }
            guard let column = schema.columnIndex(condition.field), condition.field != "_extra" else {
                let fields = schema.columns.map(\.name).filter { $0 != "_extra" }
                let isList = schema.children.contains { $0.name == condition.field }
                errors.append(
                    OptionError(
                        "filter '\(text)': "
                            + (isList
                                ? "'\(condition.field)' is a list; filter on a scalar field"
                                : "no field '\(condition.field)'; fields: \(fields.joined(separator: ", "))"),
                        at: at))
                continue
            }
            let value: TemplatedString
            do {
                value = try TemplatedString(parsing: condition.value)
            } catch {
                errors.append(OptionError("filter '\(text)': \(error.description)", at: at))
                continue
            }
            let type = schema.columns[column].type
            var sample = condition
            sample.value = value.render(now: Date(timeIntervalSince1970: 0))
            if condition.op != .contains, case .failure(let error) = sample.operand(for: type) {
                let rendered = sample.value == condition.value ? "" : " once its template is rendered"
                errors.append(OptionError("filter '\(text)': \(error.message)\(rendered)", at: at))
                continue
            }
            conditions.append(Condition(condition: condition, value: value, column: column, type: type))
        }
        try errors.throwIfAny()
        self.conditions = conditions
    }

    /// The conditions with their values rendered at `now` (the pass's `startedAt`).
    func rendered(now: Date) -> RenderedRecordFilter {
        RenderedRecordFilter(
            conditions: conditions.map { item in
                var condition = item.condition
                condition.value = item.value.render(now: now)
                // Checked at load: a rendered template has the shape of the one checked.
                let operand = (try? condition.operand(for: item.type).get()) ?? .text(condition.value)
                return (condition, item.column, operand)
            })
    }
}

/// A ``RecordFilter`` ready for one pass.
struct RenderedRecordFilter: Sendable {
    let conditions: [(condition: FieldCondition, column: Int, operand: FieldValue)]

    /// Whether `record` meets every condition.
    func keeps(_ record: EntityRecord) -> Bool {
        conditions.allSatisfy { $0.condition.holds(for: record.values[$0.column], operand: $0.operand) }
    }

    /// The conditions as rendered, one per line: part of the mapping's fingerprint, so that
    /// pages are mapped again when the window moves.
    var text: String { conditions.map(\.condition.description).joined(separator: "\n") }
}

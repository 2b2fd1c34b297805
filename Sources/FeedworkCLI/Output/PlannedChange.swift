import FeedEngine
import FeedKit

/// One change of `feedwork schema --plan --json` (``SchemaChange``).
struct PlannedChange: Encodable {
    var entity: String
    /// `create`, `add`, `convert`, `revive`, `retire`, `index` or `drop_index`.
    var change: String
    @NullWhenAbsent var column: String? = nil
    /// The columns of a full-text index that is built.
    @NullWhenAbsent var columns: [String]? = nil
    /// The stored type of a converted column.
    @NullWhenAbsent var from: String? = nil
    /// The type of an added, revived or converted column.
    @NullWhenAbsent var type: String? = nil
    /// The change as `feedwork schema --plan` prints it.
    var text: String
    /// The error the next pass would fail with on the values the store holds now (a
    /// conversion they refuse), or `null`.
    @NullWhenAbsent var refusal: String? = nil

    /// The lines `feedwork schema --plan` prints for it.
    var lines: String { text + (refusal.map { "\n  the next pass would fail: \($0)" } ?? "") }

    init(_ planned: SchemaChange, refusal: String? = nil) {
        text = planned.description
        self.refusal = refusal
        switch planned {
        case .create(let entity, _):
            self.entity = entity
            change = "create"
        case .add(let entity, let column, let type):
            self.entity = entity
            change = "add"
            self.column = column
            self.type = type.rawValue
        case .convert(let entity, let column, let from, let to):
            self.entity = entity
            change = "convert"
            self.column = column
            self.from = from.rawValue
            type = to.rawValue
        case .revive(let entity, let column, let type):
            self.entity = entity
            change = "revive"
            self.column = column
            self.type = type.rawValue
        case .retire(let entity, let column):
            self.entity = entity
            change = "retire"
            self.column = column
        case .index(let entity, let columns):
            self.entity = entity
            change = "index"
            self.columns = columns
        case .dropIndex(let entity):
            self.entity = entity
            change = "drop_index"
        }
    }
}

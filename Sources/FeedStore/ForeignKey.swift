import FeedKit

/// An enforced relation (``FeedKit/Relation/enforced``) as both stores declare it: a foreign
/// key from the child entity's `(_feed, column)` to the parent entity's rows of the same feed,
/// checked when the transaction commits (`DEFERRABLE INITIALLY DEFERRED`).
///
/// SQLite references the parent's primary key `(_feed, _key)` (it compares the child's integer
/// with the parent's text key as text); PostgreSQL, whose types must match, references
/// `(_feed, <key column>)`, which it gives a unique constraint. So the parent's key is one
/// column, `integer` or `text`, of the child column's type, and its keys never repeat (no
/// `append`): ``problem(child:parent:parentKeepsHistory:parentKeyed:)`` says what is wrong otherwise.
package struct ForeignKey: Sendable, Hashable {
    /// The entity whose rows point (the child).
    package var entity: String
    /// The child's column holding the parent's key.
    package var column: String
    /// The entity pointed at (the parent).
    package var parent: String

    /// `classified.category_id -> category`, as messages and `feedwork schema` name it.
    package var name: String { "\(entity).\(column) -> \(parent)" }

    /// The foreign keys of `schema`'s enforced relations, in schema order.
    package static func declared(by schema: EntitySchema) -> [ForeignKey] {
        schema.relations.filter(\.enforced).map {
            ForeignKey(entity: schema.name, column: $0.column, parent: $0.entity)
        }
    }

    /// The foreign keys of every schema in `schemas` that point at `entity`, sorted by name.
    package static func pointing(at entity: String, in schemas: [String: EntitySchema]) -> [ForeignKey] {
        schemas.values.flatMap(declared(by:)).filter { $0.parent == entity }.sorted { $0.name < $1.name }
    }

    /// The types a key column may have: their stored values are the text of the record's key.
    package static let keyTypes: Set<ColumnType> = [.integer, .text]

    /// Why the store cannot declare this foreign key, or `nil` when it can.
    ///
    /// - Parameters:
    ///   - child: the schema of ``entity``.
    ///   - parent: the schema of ``parent`` as the store records it, `nil` when it has none.
    ///   - parentKeepsHistory: whether a feed appends to the parent (its keys repeat).
    ///   - parentKeyed: whether the parent's table has its primary key (an older store's table
    ///     whose rows repeat a key has none).
    package func problem(
        child: EntitySchema, parent parentSchema: EntitySchema?, parentKeepsHistory: Bool, parentKeyed: Bool
    )
        -> String?
    {
        guard let childColumn = child.columns.first(where: { $0.name == column }) else {
            return "'\(entity)' has no column '\(column)'"
        }
        guard let parentSchema else {
            return "the store has no entity '\(parent)'; the feed must write it too"
        }
        guard parentSchema.key.count == 1,
            let keyColumn = parentSchema.columns.first(where: { $0.name == parentSchema.key[0] })
        else {
            return
                "the key of '\(parent)' is \(parentSchema.key.count) columns (\(parentSchema.key.joined(separator: ", "))); a foreign key needs one"
        }
        guard Self.keyTypes.contains(keyColumn.type), keyColumn.type == childColumn.type else {
            return
                "'\(entity).\(column)' is \(childColumn.type.rawValue) and the key '\(parent).\(keyColumn.name)' \(keyColumn.type.rawValue); a foreign key needs both integer or both text"
        }
        if parentKeepsHistory {
            return
                "'\(parent)' keeps history (a feed writes it in append mode), so its keys repeat and no foreign key can point at it; write it in merge or replace mode"
        }
        if !parentKeyed {
            return
                "the table '\(parent)' has no primary key, as its rows repeat a key, so no foreign key can point at it"
        }
        return nil
    }

    /// Why `entity` cannot keep history (be written in `append` mode), given the store's
    /// schemas: the foreign keys that point at it need its keys unique. `nil` when none do.
    package static func historyProblem(_ entity: String, schemas: [String: EntitySchema]) -> String? {
        let keys = pointing(at: entity, in: schemas).filter { $0.entity != entity }
        guard !keys.isEmpty else { return nil }
        return
            "entity '\(entity)' cannot be written in append mode: the enforced relation \(keys.map(\.name).joined(separator: ", ")) points at it, and a foreign key needs the keys it points at unique; write it in merge or replace mode"
    }

    /// The message of a foreign key the store cannot declare.
    package func declarationError(_ problem: String) -> String {
        "the relation \(name) is enforced, but \(problem); nothing was changed"
    }

    package init(entity: String, column: String, parent: String) {
        self.entity = entity
        self.column = column
        self.parent = parent
    }
}

/// Rows that point at a row that is not there, through an enforced relation: left by a pass
/// (which then fails and changes nothing), or found when an older store's table gains its
/// foreign key (which is then not declared, and the pass not run).
package struct ForeignKeyViolation: Error, Sendable, CustomStringConvertible {
    /// The relation broken.
    package var key: ForeignKey
    /// The feed of the first row found pointing at nothing.
    package var feed: String
    /// That row's key.
    package var rowKey: String
    /// The value it points at, which the feed's rows of the parent lack.
    package var value: String
    /// How many rows point at nothing, when counted (an older store's table).
    package var count: Int?

    package var description: String {
        let example =
            "feed '\(feed)': the \(key.entity) '\(rowKey)' has \(key.column) \(value), which is not a key of the feed's \(key.parent)"
        guard let count else {
            return
                "\(example); the pass would leave it pointing at nothing through the enforced relation \(key.name), so it fails; nothing was changed"
        }
        return
            "the enforced relation \(key.name) cannot become a foreign key: \(count == 1 ? "1 row" : "\(count) rows") of \(key.entity) \(count == 1 ? "points" : "point") at nothing (first: \(example)); fix or delete them, then run again; nothing was changed"
    }

    package init(key: ForeignKey, feed: String, rowKey: String, value: String, count: Int? = nil) {
        self.key = key
        self.feed = feed
        self.rowKey = rowKey
        self.value = value
        self.count = count
    }
}

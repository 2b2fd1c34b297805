import FeedKit
import Foundation

/// What a driver supplies to prepare a pass's entities (``SchemaPreparation``): SQL on the
/// pass's connection, not logic. Each call runs in the transaction that records the run, so a
/// refused pass leaves the store as it was.
package protocol SchemaPreparing {
    /// The store, for messages.
    var location: String { get }
    /// Why names that differ only in case are refused, for the message (SQLite ignores their
    /// case; a PostgreSQL store refuses them too, so that its entities fit an SQLite store).
    var caseRule: String { get }
    /// The names of the entities the store holds (`_entities`).
    func entityNames() throws -> [String]
    /// The schemas of the entities the store holds, by name.
    func schemas() throws -> [String: EntitySchema]
    /// Whether a feed keeps the history of `entity` (`_entities.history`); false for a new one.
    func keepsHistory(_ entity: String) throws -> Bool
    /// The values of `column` of the entity table `table` (or child table, `child`) that are not
    /// null, read as text, with the feed and key of their rows (a child row's parent's).
    func storedValues(of column: String, in table: String, child: Bool) throws
        -> [(feed: String, key: String, value: String)]
    /// Changes the type of `column` of `table`, the table of `schema` (as the store has it) or
    /// one of its child tables, to `type`, each value becoming `expression`
    /// (``ColumnConversion``): dropping the entity's view, which ``ensureView(_:schemas:)``
    /// writes again.
    func convert(
        _ column: String, of table: String, in schema: EntitySchema, to type: ColumnType, expression: String
    ) throws
    /// The store's ``SQLDialect``, for the expressions of conversions.
    var dialect: any SQLDialect { get }
    /// Creates the tables of `schema` when missing, adds new columns and keys them (`keyed`).
    func ensureTables(_ schema: EntitySchema, keyed: Bool) throws
    /// The columns of `entity` marked retired (`_entities.retired`, ``RetiredColumn``), as
    /// stored: `nil` when none.
    func retired(_ entity: String) throws -> String?
    /// Records `schema` (encoded as `json`), whether its history is kept and its retired
    /// columns (`retired`, ``RetiredColumn``: `nil` for none), in `_entities`.
    func record(_ schema: EntitySchema, json: String, history: Bool, retired: String?) throws
    /// Declares the foreign keys of the enforced relations of `schema`.
    func setForeignKeys(_ schema: EntitySchema) throws
    /// Writes the view of `schema`; `schemas` are the store's entities, for relation labels.
    func ensureView(_ schema: EntitySchema, schemas: [String: EntitySchema]) throws
    /// Brings the full-text index of `schema` (``SearchIndex``) to what it declares: builds it
    /// from the table's rows when new, drops it when the schema declares no search.
    func ensureSearch(_ schema: EntitySchema) throws
}

/// Comparing the entities a pass declares with the store's, and bringing the store up to them,
/// once for every driver: creates the tables of `bindings` when missing, adds new columns, keys
/// them (unless a feed keeps the entity's history), keeps their full-text indexes, records the
/// schemas, declares the foreign keys of their enforced relations and writes their views.
package enum SchemaPreparation {
    /// - Throws: ``StoreError`` when a binding breaks its schema contract
    ///   (``contractProblem(_:stored:)``), an entity's name differs from a stored one's only in case,
    ///   is the name of a stored entity's view (or its view has the name of a stored entity), a
    ///   table cannot take its schema, an entity that a foreign key points at would keep
    ///   history, or a foreign key cannot be declared; a ``ForeignKeyViolation`` when rows
    ///   already stored point at nothing through a relation that becomes enforced.
    package static func prepare(_ bindings: [EntityBinding], on store: some SchemaPreparing) throws {
        for binding in bindings {
            let schema = binding.schema
            if let problem = nameProblem(schema.name, stored: try store.entityNames(), caseRule: store.caseRule)
                ?? SearchIndex.problem(schema)
            {
                throw StoreError(path: store.location, message: problem)
            }
            // Only a freeze reads the stored schema: the default contract costs a pass nothing.
            if binding.contract.freezes,
                let problem = contractProblem(binding, stored: try store.schemas()[schema.name])
            {
                throw StoreError(path: store.location, message: problem)
            }
            let history = try store.keepsHistory(schema.name) || binding.mode == .append
            if history, let problem = ForeignKey.historyProblem(schema.name, schemas: try store.schemas()) {
                throw StoreError(path: store.location, message: problem + "; nothing was changed")
            }
            var retired: String?
            if let stored = try store.schemas()[schema.name] {
                let marks = RetiredColumn.decode(try store.retired(schema.name))
                try convertColumns(
                    of: RetiredColumn.reviving(marks, in: stored, declared: schema), to: schema, on: store)
                retired = RetiredColumn.encode(
                    RetiredColumn.after(marks, stored: stored, declared: schema, at: Timestamp.string(Date())))
            }
            try store.ensureTables(schema, keyed: !history)
            try store.record(
                schema, json: String(decoding: try JSONEncoder().encode(schema), as: UTF8.self), history: history,
                retired: retired)
        }
        // Once every table is there: a foreign key may point at a table of a later binding.
        for binding in bindings { try store.setForeignKeys(binding.schema) }
        // After every rebuild of a table (a key, a foreign key, a conversion), whose triggers
        // went with the old table on SQLite.
        for binding in bindings { try store.ensureSearch(binding.schema) }
        let known = try store.schemas()
        for binding in bindings { try store.ensureView(binding.schema, schemas: known) }
    }

    /// Whether the store records each of `bindings` as it is wanted (its schema, and its
    /// history when the binding appends): preparing such a pass changes no entity (only an
    /// older SQLite store's layout, which ``prepare(_:on:)`` brings up to date).
    package static func isCurrent(_ bindings: [EntityBinding], on store: some SchemaPreparing) throws -> Bool {
        guard !bindings.isEmpty else { return true }
        let stored = try store.schemas()
        for binding in bindings {
            guard stored[binding.schema.name] == binding.schema else { return false }
            if binding.mode == .append, try !store.keepsHistory(binding.schema.name) { return false }
        }
        return true
    }

    /// Converts the columns whose type differs between `stored` and `declared` in place, child
    /// tables' too (``SchemaPlan``, ``ColumnConversion``): a column without values takes any
    /// type; one with values only a type ``ColumnConversion`` allows, and only when each value
    /// converts.
    ///
    /// - Throws: ``StoreError`` naming the entity, the column and the types, and the first
    ///   value that does not convert with its row's feed and key
    ///   (``ColumnConversion/refusal(entity:column:from:to:values:)``); the pass then rolls
    ///   back, so the store is as it was.
    package static func convertColumns(
        of stored: EntitySchema, to declared: EntitySchema, on store: some SchemaPreparing
    )
        throws
    {
        for change in SchemaPlan.changes(declared: declared, stored: stored) {
            guard case .convert(let table, let column, let from, let to) = change else { continue }
            let values = try store.storedValues(of: column, in: table, child: table != declared.name)
            if let refusal = ColumnConversion.refusal(
                entity: table, column: column, from: from, to: to, values: values)
            {
                throw StoreError(path: store.location, message: refusal)
            }
            let expression = ColumnConversion.expression(
                SQLIdentifier.quoted(column), from: from, to: to, empty: values.isEmpty, dialect: store.dialect)
            try store.convert(column, of: table, in: stored, to: to, expression: expression)
        }
    }

    /// Why the store cannot take an entity named `name` beside the entities named `stored`:
    /// one differs from it only in case, or one's view (`<entity>_view`) would have its name or
    /// it the name of one's view; `nil` when none.
    package static func nameProblem(_ name: String, stored: [String], caseRule: String) -> String? {
        if let other = stored.first(where: { $0 != name && $0.lowercased() == name.lowercased() }) {
            return
                "entity '\(name)' differs from the store's entity '\(other)' only in case; \(caseRule), so use '\(other)' or another name"
        }
        if let entity = stored.first(where: { EntityView.name($0).lowercased() == name.lowercased() }) {
            return
                "entity '\(name)' has the name of the view of the store's entity '\(entity)'; use another name"
        }
        if let entity = stored.first(where: { $0.lowercased() == EntityView.name(name).lowercased() }) {
            return
                "the view of entity '\(name)' would have the name of the store's entity '\(entity)'; use another name for one of them"
        }
        return nil
    }
}

import FeedKit
import Foundation

/// Comparing the entities a pass declares with the store's, and bringing the store up to them,
/// once for every driver: creates the tables of `bindings` when missing, adds new columns, keys
/// them (unless a feed keeps the entity's history), keeps their full-text indexes, records the
/// schemas, declares the foreign keys of their enforced relations and writes their views. Each
/// statement runs on the pass's connection, in the transaction that records the run, so a
/// refused pass leaves the store as it was. The tables themselves are ``EntityTable``'s.
package enum SchemaPreparation {
    /// - Throws: ``StoreError`` when a binding breaks its schema contract
    ///   (``contractProblem(_:stored:)``), an entity's name differs from a stored one's only in case,
    ///   is the name of a stored entity's view (or its view has the name of a stored entity), a
    ///   table cannot take its schema, an entity that a foreign key points at would keep
    ///   history, or a foreign key cannot be declared; a ``ForeignKeyViolation`` when rows
    ///   already stored point at nothing through a relation that becomes enforced.
    package static func prepare(
        _ bindings: [EntityBinding], on connection: any SQLConnection, dialect: any SQLDialect
    ) throws {
        let location = connection.location
        for binding in bindings {
            let schema = binding.schema
            if let problem = nameProblem(
                schema.name, stored: try connection.entityNames(), caseRule: dialect.caseRule)
                ?? SearchIndex.problem(schema)
            {
                throw StoreError(path: location, message: problem)
            }
            // Only a freeze reads the stored schema: the default contract costs a pass nothing.
            if binding.contract.freezes,
                let problem = contractProblem(binding, stored: try connection.entitySchemas()[schema.name])
            {
                throw StoreError(path: location, message: problem)
            }
            let history = try connection.keepsHistory(schema.name) || binding.mode == .append
            if history, let problem = ForeignKey.historyProblem(schema.name, schemas: try connection.entitySchemas()) {
                throw StoreError(path: location, message: problem + "; nothing was changed")
            }
            var retired: String?
            if let stored = try connection.entitySchemas()[schema.name] {
                let marks = RetiredColumn.decode(try connection.retiredColumns(of: schema.name))
                try convertColumns(
                    of: RetiredColumn.reviving(marks, in: stored, declared: schema), to: schema, on: connection,
                    dialect: dialect)
                retired = RetiredColumn.encode(
                    RetiredColumn.after(marks, stored: stored, declared: schema, at: Timestamp.string(Date())))
            }
            try EntityTable.ensure(schema, keyed: !history, on: connection)
            try connection.record(
                schema, json: String(decoding: try JSONEncoder().encode(schema), as: UTF8.self), history: history,
                retired: retired, dialect: dialect)
        }
        // Once every table is there: a foreign key may point at a table of a later binding.
        for binding in bindings { try EntityTable.setForeignKeys(binding.schema, on: connection) }
        // After every rebuild of a table (a key, a foreign key, a conversion), whose triggers
        // went with the old table on SQLite.
        for binding in bindings { try SearchIndex.ensure(binding.schema, on: connection) }
        let known = try connection.entitySchemas()
        for binding in bindings { try EntityView.ensure(binding.schema, schemas: known, on: connection) }
    }

    /// Whether the store records each of `bindings` as it is wanted (its schema, and its
    /// history when the binding appends): preparing such a pass changes no entity (only an
    /// older SQLite store's layout, which ``prepare(_:on:dialect:)`` brings up to date).
    package static func isCurrent(_ bindings: [EntityBinding], on connection: any SQLConnection) throws -> Bool {
        guard !bindings.isEmpty else { return true }
        let stored = try connection.entitySchemas()
        for binding in bindings {
            guard stored[binding.schema.name] == binding.schema else { return false }
            if binding.mode == .append, try !connection.keepsHistory(binding.schema.name) { return false }
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
        of stored: EntitySchema, to declared: EntitySchema, on connection: any SQLConnection,
        dialect: any SQLDialect
    )
        throws
    {
        for change in SchemaPlan.changes(declared: declared, stored: stored) {
            guard case .convert(let table, let column, let from, let to) = change else { continue }
            let values = try connection.storedValues(
                of: column, in: table, child: table != declared.name, dialect: dialect)
            if let refusal = ColumnConversion.refusal(
                entity: table, column: column, from: from, to: to, values: values)
            {
                throw StoreError(path: connection.location, message: refusal)
            }
            let expression = ColumnConversion.expression(
                SQLIdentifier.quoted(column), from: from, to: to, empty: values.isEmpty, dialect: dialect)
            try EntityTable.convert(column, of: table, in: stored, to: to, expression: expression, on: connection)
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

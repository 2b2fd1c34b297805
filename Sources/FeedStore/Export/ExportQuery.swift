import FeedKit

/// The SQL of one export, built from an ``ExportRequest`` after every name in it was checked
/// against the store's schemas.
///
/// Table and column names come only from the schemas (and are quoted); every value the user
/// gave (filters, feeds, the `--changed-since` bound, the limit) is a bound parameter.
public struct ExportQuery: Sendable {
    /// The table the rows come from.
    public var table: ExportTable
    /// The columns written, in order.
    public var fields: [ExportField]
    public var sql: String
    public var arguments: [FieldValue]
    /// The tombstones written after the rows, with ``ExportRequest/includeDeleted``.
    public var deleted: DeletedRows?

    /// Checks `request` against `schemas` and builds its query.
    ///
    /// - Throws: a usage ``ExportError`` naming the valid entities or fields when the request
    ///   names one the store does not have, or when a filter's value does not fit its column.
    package static func build(
        _ request: ExportRequest, schemas: [String: EntitySchema], dialect: any SQLDialect
    ) throws(ExportError) -> ExportQuery {
        let tables = ExportTable.all(in: schemas)
        guard let table = tables.first(where: { $0.name == request.entity }) else {
            if tables.isEmpty {
                throw .unknownName(
                    "no entity '\(request.entity)': the store holds no entities yet (run `feedwork run` first)")
            }
            throw .unknownName(
                "no entity '\(request.entity)' in the store; entities: \(tables.map(\.name).joined(separator: ", "))")
        }
        var builder = Builder(table: table, schemas: schemas, dialect: dialect)
        var fields = try builder.selectedFields(request)
        for feed in request.feeds.isEmpty ? [] : [request.feeds] {
            builder.conditions.append("t._feed IN (\(feed.map { _ in "?" }.joined(separator: ", ")))")
            builder.arguments += feed.map { .text($0) }
        }
        let search = try request.search.map { query throws(ExportError) in
            dialect.search(try Self.searchable(table, schemas: schemas), for: query)
        }
        if let search { builder.conditions.append(search.condition) }
        for filter in request.filters { try builder.add(filter) }
        if let bound = request.changedSince { builder.add(bound) }
        if request.keyset == nil { fields = ExportQuery.withMediaFields(fields, request: request, schemas: schemas) }
        var order = try builder.orderClause(request.order)
        if let search, request.order.isEmpty { order = "\(search.rank) DESC, \(dialect.tiebreak)" }
        var selected = fields.map { field in field.media.map(ExportQuery.mediaSelect) ?? dialect.select(field) }
        if let keyset = request.keyset {
            let clauses = try KeysetClauses(keyset, table: table, dialect: dialect, rank: search?.rank)
            order = clauses.order
            if let condition = clauses.condition {
                builder.conditions.append(condition)
                builder.arguments += clauses.arguments
            }
            if let search, keyset.sort == nil {
                fields.append(Keyset.rankField)
                selected.append("\(search.rank) AS \(SQLIdentifier.quoted(Keyset.rankField.name))")
            }
            if table.parent == nil {
                fields.append(Keyset.tiebreakField)
                selected.append("\(dialect.tiebreak) AS \(SQLIdentifier.quoted(Keyset.tiebreakField.name))")
            }
        }

        var sql = "SELECT \(selected.joined(separator: ", "))"
        sql += " FROM " + (search?.from ?? "\(SQLIdentifier.quoted(table.name)) AS t")
        if !builder.conditions.isEmpty { sql += " WHERE " + builder.conditions.joined(separator: " AND ") }
        sql += " ORDER BY " + order
        // The search's one parameter is in FROM, before every condition's.
        var arguments = (search.map { [$0.argument] } ?? []) + builder.arguments
        if let limit = request.limit {
            guard limit >= 0 else { throw .usage("--limit \(limit): expected a number of rows, 0 or more") }
            sql += " LIMIT ?"
            arguments.append(.integer(Int64(limit)))
        }
        var query = ExportQuery(table: table, fields: fields, sql: dialect.numbered(sql), arguments: arguments)
        if request.includeDeleted {
            guard let bound = request.changedSince else { throw DeletedRows.needsChangedSince }
            query.deleted = try DeletedRows.build(
                for: table, fields: fields, feeds: request.feeds, since: bound, dialect: dialect)
        }
        return query
    }

    /// The schema of `table` when it has a full-text index to search.
    ///
    /// - Throws: a usage ``ExportError`` naming the entity and how to give it one, when it has
    ///   none (or is a child table).
    static func searchable(_ table: ExportTable, schemas: [String: EntitySchema]) throws(ExportError) -> EntitySchema {
        if let parent = table.parent {
            throw .usage("search: '\(table.name)' is a list of '\(parent)'; search '\(parent)' instead")
        }
        guard let schema = schemas[table.name], !schema.search.isEmpty else {
            throw .usage(
                "search: entity '\(table.name)' has no full-text index; declare its text fields to search in its feed, "
                    + "as search: [title, description] in a json feed's options, and run the feed")
        }
        return schema
    }
}

/// Accumulates the conditions and arguments of one query.
private struct Builder {
    let table: ExportTable
    let schemas: [String: EntitySchema]
    let dialect: any SQLDialect
    var conditions: [String] = []
    var arguments: [FieldValue] = []

    init(table: ExportTable, schemas: [String: EntitySchema], dialect: any SQLDialect) {
        self.table = table
        self.schemas = schemas
        self.dialect = dialect
    }

    private var validFieldsText: String {
        var text = "fields: " + table.dataFields.map(\.name).joined(separator: ", ")
        text += "; _ columns: " + table.metaFields.map(\.name).joined(separator: ", ")
        let related = table.relations.filter { schemas[$0.entity] != nil }.map(\.entity)
        if !related.isEmpty { text += "; related entities: " + related.joined(separator: ", ") }
        return text
    }

    private func field(_ name: String, for option: String) throws(ExportError) -> ExportField {
        guard let field = table.field(name) else {
            throw .usage("\(option): '\(table.name)' has no field '\(name)'; \(validFieldsText)")
        }
        return field
    }

    func selectedFields(_ request: ExportRequest) throws(ExportError) -> [ExportField] {
        guard !request.columns.isEmpty else { return table.defaultFields(includeMeta: request.includeMeta) }
        var seen: Set<String> = []
        var fields: [ExportField] = []
        for name in request.columns {
            guard seen.insert(name).inserted else { throw .usage("--columns: '\(name)' is named twice") }
            fields.append(try field(name, for: "--columns"))
        }
        return fields
    }

    func orderClause(_ terms: [OrderTerm]) throws(ExportError) -> String {
        var clauses: [String] = []
        for term in terms.isEmpty ? table.defaultOrder : terms {
            let field = try field(term.column, for: "--order")
            clauses.append("t.\(SQLIdentifier.quoted(field.name))" + (term.descending ? " DESC" : ""))
        }
        // Rows inserted first come first among equals (on SQLite), so the output is stable.
        clauses.append(table.parent == nil ? dialect.tiebreak : dialect.childTiebreak)
        return clauses.joined(separator: ", ")
    }

    mutating func add(_ filter: ExportFilter) throws(ExportError) {
        if let field = table.field(filter.field) {
            try add(filter, on: field)
        } else if let relation = table.relations.first(where: { $0.entity == filter.field }),
            let related = schemas[relation.entity]
        {
            try add(filter, through: relation, to: related)
        } else {
            throw .usage("--where: '\(table.name)' has no field '\(filter.field)'; \(validFieldsText)")
        }
    }

    private mutating func add(_ filter: ExportFilter, on field: ExportField) throws(ExportError) {
        let column = "t." + SQLIdentifier.quoted(field.name)
        if filter.op == .contains {
            conditions.append("\(dialect.searchable(column, field: field)) \(dialect.like) ? ESCAPE '\\'")
            arguments.append(.text(Self.likePattern(containing: filter.value)))
            return
        }
        let (expression, value) = try comparable(column, field: field, text: filter.value, filter: filter)
        conditions.append(comparison(expression, filter.op))
        arguments.append(value)
    }

    /// A relation filter matches rows whose related row (same `_feed`) has the value as its key
    /// or as its label: `--where category=Maison` or `--where category=12`.
    private mutating func add(_ filter: ExportFilter, through relation: Relation, to related: EntitySchema)
        throws(ExportError)
    {
        guard [.equal, .notEqual, .contains].contains(filter.op) else {
            throw .usage(
                "--where '\(filter.field)\(filter.op.rawValue)\(filter.value)': a related entity takes =, != or ~")
        }
        let localColumn = "t." + SQLIdentifier.quoted(relation.column)
        guard table.field(relation.column) != nil else {
            throw .usage("--where: the relation column '\(relation.column)' of '\(table.name)' is not in its schema")
        }
        let keyExpression: String
        let joinExpression: String
        let keyField: ExportField
        if related.key.count == 1, let index = related.columnIndex(related.key[0]) {
            let column = related.columns[index]
            keyExpression = "r." + SQLIdentifier.quoted(column.name)
            joinExpression = "\(keyExpression) = \(localColumn)"
            keyField = ExportField(name: column.name, type: column.type)
        } else {
            keyExpression = "r._key"
            joinExpression = "r._key = CAST(\(localColumn) AS TEXT)"
            keyField = ExportField(name: "_key", type: .text)
        }
        let matchOp: ExportFilter.Operator = filter.op == .notEqual ? .equal : filter.op
        var matches: [String] = []
        var matchArguments: [FieldValue] = []
        var candidates = [(keyExpression, keyField)]
        if let label = relation.labelColumn, let index = related.columnIndex(label) {
            let column = related.columns[index]
            candidates.append(
                ("r." + SQLIdentifier.quoted(column.name), ExportField(name: column.name, type: column.type)))
        }
        for (expression, field) in candidates {
            if matchOp == .contains {
                matches.append("\(dialect.searchable(expression, field: field)) \(dialect.like) ? ESCAPE '\\'")
                matchArguments.append(.text(Self.likePattern(containing: filter.value)))
            } else if let (typed, value) = try? comparable(
                expression, field: field, text: filter.value, filter: filter)
            {
                // A value that does not fit the key's type (a label for an integer key) only matches the label.
                matches.append(comparison(typed, .equal))
                matchArguments.append(value)
            }
        }
        let exists =
            "EXISTS (SELECT 1 FROM \(SQLIdentifier.quoted(related.name)) AS r WHERE r._feed = t._feed AND \(joinExpression)"
            + " AND (\(matches.isEmpty ? dialect.never : matches.joined(separator: " OR "))))"
        conditions.append(filter.op == .notEqual ? "NOT " + exists : exists)
        arguments += matchArguments
    }

    mutating func add(_ bound: ChangedSince) {
        if let parent = table.parent {
            // Child rows are rewritten with their parent, so the parent's `_run` dates them.
            let (runCondition, argument) = bound.condition(on: "p._run")
            conditions.append(
                "EXISTS (SELECT 1 FROM \(SQLIdentifier.quoted(parent)) AS p WHERE p._feed = t._feed AND p._key = t._key AND \(runCondition))"
            )
            arguments.append(argument)
        } else {
            let (runCondition, argument) = bound.condition(on: "t._run")
            conditions.append(runCondition)
            arguments.append(argument)
        }
    }

    /// The column expression to compare and the value bound for it, typed by the column
    /// (``FieldCondition/operand(for:)``); decimals, stored as exact text, compare as numbers.
    func comparable(_ column: String, field: ExportField, text: String, filter: ExportFilter)
        throws(ExportError) -> (String, FieldValue)
    {
        switch FieldCondition(field: field.name, op: filter.op, value: text).operand(for: field.type) {
        case .success(let value): return (field.type == .decimal ? dialect.number(column) : column, value)
        case .failure(let error):
            throw .usage("--where '\(filter.field)\(filter.op.rawValue)\(text)': \(error.message)")
        }
    }

    /// `!=` keeps rows whose value is null; the other comparisons never match null.
    func comparison(_ expression: String, _ op: ExportFilter.Operator) -> String {
        switch op {
        case .notEqual: "\(expression) \(dialect.distinct) ?"
        case .contains: "\(expression) \(dialect.like) ? ESCAPE '\\'"
        default: "\(expression) \(op.rawValue) ?"
        }
    }

    /// A LIKE pattern matching text that contains `value` literally.
    static func likePattern(containing value: String) -> String {
        var pattern = "%"
        for character in value {
            if character == "%" || character == "_" || character == "\\" { pattern.append("\\") }
            pattern.append(character)
        }
        return pattern + "%"
    }
}

import FeedKit

extension SchemaPlan {
    /// Why the next pass would fail to apply `change`, a type conversion, to the values `store`
    /// holds now (``ColumnConversion``): the message the pass would fail with; `nil` when it
    /// would not, and for any other change. For `feedwork schema --plan`, which changes nothing.
    ///
    /// - Throws: ``StoreError`` when the store cannot be read.
    package static func refusal(of change: SchemaChange, in store: any StoreReading) async throws -> String? {
        guard case .convert(let entity, let column, let from, let to) = change else { return nil }
        let quoted = SQLIdentifier.quoted(column)
        let rows = try await store.query(
            "SELECT _feed, _key, \(quoted) AS value FROM \(SQLIdentifier.quoted(entity)) WHERE \(quoted) IS NOT NULL",
            arguments: [])
        let values = rows.map { row in
            (feed: row["_feed"]?.description ?? "", key: row["_key"]?.description ?? "", value: text(row["value"]))
        }
        return ColumnConversion.refusal(entity: entity, column: column, from: from, to: to, values: values)
    }

    /// A value as ``StoreReading/query(_:arguments:)`` gives it, as the text the pass reads it as.
    private static func text(_ value: FieldValue?) -> String {
        switch value {
        case .text(let text)?: text
        case .integer(let number)?: String(number)
        case .real(let number)?: String(number)
        case .bool(let flag)?: flag ? "true" : "false"
        case .null?, nil: ""
        }
    }
}

import FeedKit

/// Which stored values a column keeps when its type changes, once for both stores: the rule
/// that decides whether a pass may convert a column in place (``SchemaPreparation``), and the
/// SQL expression that converts it, from each store's ``SQLDialect``.
///
/// A column converts when its type is one of these, or when it holds no value at all:
/// - `integer` to `real`, `decimal` or `text`: every value converts;
/// - `boolean` to `integer` (1 or 0) or `text` (`true` or `false`): every value converts;
/// - `decimal` to `text`: every value converts;
/// - `decimal` to `integer`: when every value is a whole number;
/// - `text` to `integer`: when every value is a whole number (`42`, `-7`) within 64 bits;
/// - `text` to `decimal`: when every value is a plain decimal number (`1.50`, `-3`).
///
/// Other changes (a timestamp to an integer, text to JSON...) are refused for a column that
/// holds values: the message says to map the field to a new column instead.
package enum ColumnConversion {
    /// Whether a column of type `from` holding values may become `to` (value by value, see
    /// ``converts(_:from:to:)``).
    package static func isSupported(from: ColumnType, to: ColumnType) -> Bool {
        switch (from, to) {
        case (.integer, .real), (.integer, .decimal), (.integer, .text): true
        case (.boolean, .integer), (.boolean, .text): true
        case (.decimal, .text), (.decimal, .integer): true
        case (.text, .integer), (.text, .decimal): true
        default: false
        }
    }

    /// Whether every value of a column of type `from` converts to `to`, whatever it is.
    package static func isTotal(from: ColumnType, to: ColumnType) -> Bool {
        switch (from, to) {
        case (.decimal, .integer), (.text, .integer), (.text, .decimal): false
        default: isSupported(from: from, to: to)
        }
    }

    /// Whether `value`, a stored value of a column of type `from` read as text, converts to `to`.
    package static func converts(_ value: String, from: ColumnType, to: ColumnType) -> Bool {
        switch (from, to) {
        case (.decimal, .integer), (.text, .integer): Int64(value) != nil && value.first != "+"
        case (.text, .decimal): isPlainDecimal(value)
        default: isSupported(from: from, to: to)
        }
    }

    /// Why the column `column` of `entity`, holding `values` (non-null, read as text, with
    /// their rows' feeds and keys), cannot change from `from` to `to`; `nil` when it can. The
    /// first value that does not convert is the first in the order of feed and key, the same on
    /// every store.
    package static func refusal(
        entity: String, column: String, from: ColumnType, to: ColumnType,
        values: [(feed: String, key: String, value: String)]
    ) -> String? {
        guard !values.isEmpty else { return nil }
        guard isSupported(from: from, to: to) else {
            return unsupportedMessage(entity: entity, column: column, from: from, to: to)
        }
        let failing = values.filter { !converts($0.value, from: from, to: to) }
            .min { ($0.feed, $0.key) < ($1.feed, $1.key) }
        return failing.map {
            failedMessage(
                entity: entity, column: column, from: from, to: to, value: $0.value, feed: $0.feed, key: $0.key)
        }
    }

    /// `-?digits(.digits)?`: what both stores read alike as an exact decimal.
    package static func isPlainDecimal(_ value: String) -> Bool {
        var digits = Substring(value)
        if digits.first == "-" { digits = digits.dropFirst() }
        let parts = digits.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count) else { return false }
        return parts.allSatisfy { part in !part.isEmpty && part.allSatisfy { ("0"..."9").contains($0) } }
    }

    /// The SQL that gives `column` (quoted) as a value of `to`: `NULL` for a column holding
    /// no value, whatever its types.
    package static func expression(
        _ column: String, from: ColumnType, to: ColumnType, empty: Bool, dialect: some SQLDialect
    ) -> String {
        if empty { return "NULL" }
        if (from, to) == (.boolean, .text) {
            return "CASE WHEN \(column) IS NULL THEN NULL WHEN \(column) THEN 'true' ELSE 'false' END"
        }
        return dialect.converted(column, from: from, to: to)
    }

    /// The message of a pass that would change `column` of `entity` from `from` to `to`, a
    /// change ``isSupported(from:to:)`` refuses, while the column holds values.
    package static func unsupportedMessage(entity: String, column: String, from: ColumnType, to: ColumnType) -> String {
        "column '\(column)' of '\(entity)' cannot change from \(from.rawValue) to \(to.rawValue) in place: "
            + "map the field to a new column name (the old column is kept) or use a new entity name; nothing was changed"
    }

    /// The message of a pass whose stored value `value` (of the row `key` of `feed`) does not
    /// convert.
    package static func failedMessage(
        entity: String, column: String, from: ColumnType, to: ColumnType, value: String, feed: String, key: String
    ) -> String {
        "column '\(column)' of '\(entity)' cannot change from \(from.rawValue) to \(to.rawValue): "
            + "the value '\(value)' of the row with key '\(key)' (feed '\(feed)') does not convert; nothing was changed"
    }
}

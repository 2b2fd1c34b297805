import FeedKit

/// Where the SQL of the stores differs, supplied by each driver (as sql-kit's `SQLDialect`):
/// the export's queries (``ExportQuery``), keyset pages and the `<entity>_view` views are
/// written once, with these pieces.
///
/// Statements are written with `?` parameters; a dialect whose database numbers them
/// (`$1`, `$2`...) rewrites them in ``numbered(_:)``.
package protocol SQLDialect: Sendable {
    /// Case-insensitive `contains`.
    var like: String { get }

    /// `!=` that keeps rows whose value is null.
    var distinct: String { get }

    /// A condition that never holds.
    var never: String { get }

    /// What breaks ties in an order, so that an export is stable: the insertion order of the
    /// entity table aliased `t` (a page query's tie-breaking column `_row`).
    var tiebreak: String { get }

    /// A decimal column as a value that compares as a number.
    func number(_ column: String) -> String

    /// Minor units in `column` as an amount with `digits` decimals (a view's `<column>_amount`).
    func amount(_ column: String, digits: Int) -> String

    /// `text` (Feedwork's own, without quotes) as a text literal.
    func textLiteral(_ text: String) -> String

    /// The key field at `index` of a tombstone's `key_values` (aliased `d`), as the export
    /// reads it back (see ``DeletedRows``).
    func keyValue(at index: Int, of field: ExportField) -> String

    /// The expression that selects `field` of the table aliased `t`.
    func select(_ field: ExportField) -> String

    /// `column` (holding `field`) as the text `~` (contains) searches.
    func searchable(_ column: String, field: ExportField) -> String

    /// `sql` with its `?` parameters as the database reads them.
    func numbered(_ sql: String) -> String

    /// The most parameters one statement may bind: ``SQLEntityWriter`` writes as many rows,
    /// and looks up as many keys, per statement as they allow.
    var parameterLimit: Int { get }
    /// The SQL that selects the timestamp `column` of a system table as ISO 8601 text in UTC,
    /// as the SQLite store holds it (the default: the column itself).
    func timestampText(_ column: String) -> String

    /// The type of a system table's column that holds `kind` (``SystemTable``).
    func systemType(_ kind: SystemColumn.Kind) -> String

    /// The declaration of a system table's row id that the database numbers, after its name.
    var serialPrimaryKey: String { get }

    /// The default of a system table's column of `kind` that starts at zero (or false).
    func zero(_ kind: SystemColumn.Kind) -> String

    /// `column` (quoted), of type `from`, as a value of type `to`, for a conversion that
    /// ``ColumnConversion`` allows.
    func converted(_ column: String, from: ColumnType, to: ColumnType) -> String

    /// The SQL of a full-text search of `schema`'s table, aliased `t`, through its index
    /// (``SearchIndex``), for the words of `query`.
    func search(_ schema: EntitySchema, for query: SearchQuery) -> SearchSQL
    /// The full-text index of `schema`'s search columns (``SearchIndex``): what the database
    /// records of it once written, and the statements that write and build it.
    func searchIndex(_ schema: EntitySchema) -> SearchIndexStatements
    /// A statement that reads, for the index named `?` (``SearchIndex/name(_:)``), each object
    /// it is made of that is there: its name, and what the database records of it.
    var searchIndexRecordSQL: String { get }
    /// The statements that drop the full-text index of `entity` when it is there.
    func dropSearchIndex(of entity: String) -> [String]

    /// Whether values written into a statement as literals are all quoted text, which takes
    /// its column's type as a parameter's text does (PostgreSQL); else numbers stay bare.
    var inlinesValuesAsText: Bool { get }

    /// Why entity names that differ only in case are refused, for the message
    /// (``SchemaPreparation/nameProblem(_:stored:caseRule:)``).
    var caseRule: String { get }

    /// A `SELECT` of the texts of the JSON array bound to its one parameter, for `IN (...)`.
    var jsonArrayTexts: String { get }

    /// A `FROM` item: the objects of the JSON array bound to its one parameter as the rows of a
    /// table aliased `alias`, each of `columns` (a name the objects' keys spell as it is) read as
    /// a value of its kind.
    func jsonRecords(_ columns: [(name: String, kind: SystemColumn.Kind)], as alias: String) -> String

    /// The smaller of two values, ignoring a null one (null when both are). Each is written once,
    /// so a subquery's value is not read twice.
    func least(_ first: String, _ second: String) -> String

    /// The larger of two values, ignoring a null one (null when both are).
    func greatest(_ first: String, _ second: String) -> String

    /// A statement that returns a row when the table named by its one parameter (the name as it
    /// is, unquoted) exists.
    var tableExists: String { get }
    /// The JSON array of the key columns' values of a row of `schema`'s table, for its tombstone
    /// (``EntityDeletion``), as SQLite's `json_array` gives them: numbers for integer and real
    /// columns, 1 or 0 for booleans, and strings for the rest (a decimal's stored digits, a
    /// timestamp as ISO 8601 UTC with milliseconds, a date as `YYYY-MM-DD`, JSON as its text).
    func tombstoneKeyValues(_ schema: EntitySchema) -> String
    /// A statement that reads what holds the name `?` (a table's or view's): `1` when it is a
    /// view (else `0`), and the text the database records of it in which a view Feedwork wrote
    /// holds ``viewMark`` (``EntityView``); no row when nothing holds the name.
    var viewRecordSQL: String { get }
    /// The text that a view Feedwork wrote holds in its record (``viewRecordSQL``).
    var viewMark: String { get }
    /// The statements that write the view `name` of the query `select`, with what
    /// ``viewRecordSQL`` then reads of it.
    func createView(_ name: String, as select: String) -> (record: String, statements: [String])

    /// The database's time as the statement runs (not as its transaction started).
    var clock: String { get }

    /// The lexical rules a person's statement is scanned by (``ReadOnlySQLStatement``).
    var readOnlySQLFlavor: ReadOnlySQLStatement.Flavor { get }

    // Entity tables (``EntityTable``).

    /// The type a column holding `type` is declared with.
    func columnType(_ type: ColumnType) -> String
    /// The type of a column holding `type` as ``storedColumnsSQL`` reads it back (the default:
    /// ``columnType(_:)``), compared without regard to case.
    func storedColumnType(_ type: ColumnType) -> String
    /// Whether column names that differ only in case name one column (the default: false).
    var columnNamesIgnoreCase: Bool { get }
    /// The query of the columns of the table named by its one parameter, in order, none when
    /// there is no such table: each one's name, type, `1` when it is `NOT NULL` (else `0`), and
    /// its place in the primary key from 1 (`0` when not in it).
    var storedColumnsSQL: String { get }
    /// The query of the foreign keys with Feedwork's shape (``ForeignKey``) of the table named by
    /// its one parameter, in declaration order: each one's constraint name (or number), parent
    /// table and column.
    var foreignKeysSQL: String { get }
    /// The query of the other tables whose foreign keys point at the table named by its one
    /// parameter, where ``reshape(_:to:in:)`` rebuilds a table (which they would stop it doing);
    /// `nil` (the default) where tables are changed in place.
    var tablesPointingSQL: String? { get }
    /// The query of the schema that the statements changing a table name it in, where names
    /// are searched for in more than one (the default: `nil`, none).
    var namespaceSQL: String? { get }
    /// `name`, a table's or an index's, as the statements that change or drop it write it, in
    /// `namespace` (``namespaceSQL``'s; the default: the name quoted).
    func qualified(_ name: String, in namespace: String?) -> String
    /// The name of the index on `(_feed, _key)` of a table without its primary key, an entity's
    /// or a `child` table (the default: `<table>_feed_key`).
    func lookupIndex(of table: String, child: Bool) -> String
    /// The statements that create the table of `shape` with the common columns (the entity's
    /// or a child table's), then `columns`, and its primary key when ``EntityTableShape/keyed``.
    /// A database may declare the shape's foreign keys here, or leave them to
    /// ``reshape(_:to:in:)``, which ``EntityTable/setForeignKeys(_:on:)`` calls once every
    /// parent's table is there.
    func createTable(_ shape: EntityTableShape, columns: [Column], in namespace: String?) -> [String]
    /// The statements that give `table` the primary key, foreign keys and column types of
    /// `shape`, its rows kept.
    func reshape(_ table: StoredTable, to shape: EntityTableShape, in namespace: String?) -> TableChange

    /// What ends the subquery that selects the rows an `UPDATE` takes, so that transactions
    /// taking rows at once each skip the rows another locked rather than wait for them or
    /// take them too; nothing (the default) where one writer holds the whole database.
    var skipLocked: String { get }
}

extension SQLDialect {
    /// What breaks ties for a child table, whose rows have no `_run` (nor, on every store, a
    /// row id): the record and the place in its list.
    package var childTiebreak: String { "t._feed, t._key, t._position" }

    /// The column itself.
    package func select(_ field: ExportField) -> String { "t." + SQLIdentifier.quoted(field.name) }

    /// The column itself.
    package func searchable(_ column: String, field: ExportField) -> String { column }

    /// `sql` as it is: `?` parameters.
    package func numbered(_ sql: String) -> String { sql }

    /// 999: SQLite's limit before 3.32, which few databases go below.
    package var parameterLimit: Int { 999 }
    package func timestampText(_ column: String) -> String { column }

    /// `0`.
    package func zero(_ kind: SystemColumn.Kind) -> String { "0" }
    package var inlinesValuesAsText: Bool { false }

    /// Nothing.
    package var skipLocked: String { "" }

    package func storedColumnType(_ type: ColumnType) -> String { columnType(type) }
    package var columnNamesIgnoreCase: Bool { false }
    package var tablesPointingSQL: String? { nil }
    package var namespaceSQL: String? { nil }
    package func qualified(_ name: String, in namespace: String?) -> String { SQLIdentifier.quoted(name) }
    package func lookupIndex(of table: String, child: Bool) -> String { table + "_feed_key" }
}

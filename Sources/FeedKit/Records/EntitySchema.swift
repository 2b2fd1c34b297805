/// The type of a column, which decides how it is stored and exported.
public enum ColumnType: String, Sendable, Codable, CaseIterable {
    /// A 64-bit signed integer.
    case integer
    /// A binary floating-point number. Never used for money.
    case real
    /// UTF-8 text.
    case text
    /// `true` or `false`, stored as 1 or 0.
    case boolean
    /// An exact decimal number kept as text (`"1.0735"`), so no digit is ever lost.
    /// Exported as a JSON string.
    case decimal
    /// An ISO 8601 UTC instant (`2019-11-05T15:56:59Z`), stored as text.
    case timestamp
    /// A calendar date with no time of day and no time zone (`2024-02-29`): stored as the text
    /// `YYYY-MM-DD` on SQLite and as `date` on PostgreSQL, compared and exported as that text.
    case date
    /// A JSON document stored as text, exported as embedded JSON.
    case json
}

/// What a column means to a person looking at the rows, beyond its type: `feedwork serve`
/// shows an entity with an `image` and a `title` as cards, with its `money` as the price and
/// its `link` as a button.
public enum ColumnRole: String, Sendable, Codable, CaseIterable {
    /// The URL of a picture of the record.
    case image
    /// The URL of the record's page (where to buy it, read it...).
    case link
    /// What the record is called.
    case title
    /// The record's price: minor units, in the row's `currency` column or the column's own.
    case money
}

/// One typed column of an entity.
public struct Column: Sendable, Hashable, Codable {
    /// The column's name in the table, the export and `--where` filters.
    public var name: String
    /// How the column's values are stored and compared.
    public var type: ColumnType
    /// Whether the column may hold `null`.
    public var nullable: Bool
    /// A line for `feedwork adapters` and the docs; may be empty.
    public var summary: String
    /// For an integer column of money in minor units: its ISO 4217 currency, so that a stored
    /// `249` reads as GBP 2.49 wherever the schema goes (`_entities`, `schema`, the export
    /// manifest, the entity's SQL view). `nil` for any other column.
    public var currency: String?
    /// What the column means to a person (``ColumnRole``); `nil` for most columns.
    public var role: ColumnRole?
    /// For a text column of image URLs: whether the images are mirrored into the store after
    /// each pass (fetched once, kept by content, served by `feedwork serve` and copied by
    /// `export --media`). The column keeps the URL either way.
    public var media: Bool

    /// A column, nullable and with no summary, currency, role or media unless told.
    public init(
        _ name: String, _ type: ColumnType, nullable: Bool = true, summary: String = "", currency: String? = nil,
        role: ColumnRole? = nil, media: Bool = false
    ) {
        self.name = name
        self.type = type
        self.nullable = nullable
        self.summary = summary
        self.currency = currency
        self.role = role
        self.media = media
    }

    private enum CodingKeys: String, CodingKey {
        case name, type, nullable, summary, currency, role, media
    }

    /// Reads a column; one stored by an earlier Feedwork (in `_entities`) has no `media`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        type = try container.decode(ColumnType.self, forKey: .type)
        nullable = try container.decode(Bool.self, forKey: .nullable)
        summary = try container.decode(String.self, forKey: .summary)
        currency = try container.decodeIfPresent(String.self, forKey: .currency)
        role = try container.decodeIfPresent(ColumnRole.self, forKey: .role)
        media = try container.decodeIfPresent(Bool.self, forKey: .media) ?? false
    }

    /// Writes `media` only when set, so that the schemas of columns without it read as before.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(type, forKey: .type)
        try container.encode(nullable, forKey: .nullable)
        try container.encode(summary, forKey: .summary)
        try container.encodeIfPresent(currency, forKey: .currency)
        try container.encodeIfPresent(role, forKey: .role)
        if media { try container.encode(media, forKey: .media) }
    }
}

extension EntitySchema {
    /// The text columns of the entity whose image URLs are mirrored (``Column/media``).
    public var mediaColumns: [String] { Column.mediaColumns(in: columns) }

    /// The tables of the entity that have media columns, the entity's own first, then its
    /// child lists' (`<entity>__<list>`), each with those columns.
    public var mediaTables: [(name: String, columns: [String])] {
        let own = [(name: name, columns: mediaColumns)]
        let lists = children.map { (name: childTableName($0), columns: $0.mediaColumns) }
        return (own + lists).filter { !$0.columns.isEmpty }
    }
}

extension ChildSchema {
    /// The text columns of the list's items whose image URLs are mirrored (``Column/media``).
    public var mediaColumns: [String] { Column.mediaColumns(in: columns) }
}

extension Column {
    /// The names of the media columns (text columns with ``media``) among `columns`.
    static func mediaColumns(in columns: [Column]) -> [String] {
        columns.filter { $0.media && $0.type == .text }.map(\.name)
    }
}

/// A relation from one entity's column to another entity's key.
///
/// Related keys are unique only within a feed, so a row points at the row of `entity` that the
/// same feed wrote (same `_feed`). Every relation gives exports and `feedwork serve` a filter by
/// the related row's key or label, and the entity's SQL view the label beside the column.
public struct Relation: Sendable, Hashable, Codable {
    /// The column of this entity that holds the other entity's key.
    public var column: String
    /// The entity the column points at.
    public var entity: String
    /// A column of the other entity that may be used in filters instead of the key (a name).
    public var labelColumn: String?
    /// Whether the store declares the relation as a SQL foreign key, so that no row can point
    /// at a row that is not there. Default `false`: the relation is for filters and labels only,
    /// and a row may name a key the other entity lacks (an exchange rate naming a currency that
    /// the list of currencies does not have).
    ///
    /// When `true`, the store declares a foreign key from this entity's `(_feed, column)` to
    /// `entity`'s rows of the same feed (by their key), checked when the pass commits: within a
    /// pass the rows may come in any order, but a pass that would leave a row pointing at a
    /// missing one (a `replace` pass of `entity` dropping a row that others still name) fails
    /// and changes nothing. A `null` value points at nothing and is allowed. It needs:
    /// - `entity`'s key is one column, of the same type as `column`, `integer` or `text`;
    /// - no feed writes `entity` in `append` mode, whose keys repeat;
    /// - the feed writes `entity` too (only its own rows of `entity` count), so that its table
    ///   and schema are in the store.
    ///
    /// Otherwise the pass fails, saying why and changing nothing; so does a later pass that
    /// would break them (a feed appending to `entity`), and the first pass on a store written
    /// before the relation was enforced whose rows already point at missing ones.
    public var enforced: Bool

    /// A relation from `column` to `entity`'s key, for filters and labels only unless `enforced`.
    public init(column: String, entity: String, labelColumn: String? = nil, enforced: Bool = false) {
        self.column = column
        self.entity = entity
        self.labelColumn = labelColumn
        self.enforced = enforced
    }

    private enum CodingKeys: String, CodingKey {
        case column, entity, labelColumn, enforced
    }

    /// Reads a relation; one stored by an earlier Feedwork (in `_entities`) has no `enforced`
    /// and is not enforced.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        column = try container.decode(String.self, forKey: .column)
        entity = try container.decode(String.self, forKey: .entity)
        labelColumn = try container.decodeIfPresent(String.self, forKey: .labelColumn)
        enforced = try container.decodeIfPresent(Bool.self, forKey: .enforced) ?? false
    }
}

/// One term of a default order: a column, ascending or descending.
public struct OrderTerm: Sendable, Hashable, Codable {
    /// The column ordered by.
    public var column: String
    /// Whether larger values come first.
    public var descending: Bool

    /// A term ordering by `column`, ascending unless `descending`.
    public init(_ column: String, descending: Bool = false) {
        self.column = column
        self.descending = descending
    }

    /// Smaller values of `column` first.
    public static func ascending(_ column: String) -> OrderTerm { OrderTerm(column) }
    /// Larger values of `column` first.
    public static func descending(_ column: String) -> OrderTerm { OrderTerm(column, descending: true) }
}

/// What an adapter writes: an entity type with typed columns, a key, relations and a default order.
///
/// The store creates one table per entity, named after it, with these columns plus the common
/// columns that every entity has (`_feed`, `_key`...). Several feeds may write one entity; their
/// rows are told apart by `_feed`.
///
/// ```swift
/// EntitySchema(
///     name: "fruit",
///     columns: [Column("type", .text, nullable: false), Column("price", .integer)],
///     key: ["type"],
///     order: [.ascending("type")])
/// ```
public struct EntitySchema: Sendable, Hashable, Codable {
    /// The entity's name: its table's and view's name in the store, and `feedwork export`'s argument.
    public var name: String
    /// The typed columns, in the order a record's ``EntityRecord/values`` follow.
    public var columns: [Column]
    /// The columns whose values make up a record's key (`_key` holds them joined).
    public var key: [String]
    /// Columns that point at other entities' keys (``Relation``).
    public var relations: [Relation]
    /// The order exports use when the user names none.
    public var order: [OrderTerm]
    /// Child tables, for lists nested in a record: `<name>__<child>`, one row per item.
    public var children: [ChildSchema]
    /// A line for `feedwork adapters`; may be empty.
    public var summary: String
    /// The text columns of the full-text index (`search: [title, description]`): the store
    /// keeps an index of their words, updated in each pass's transaction, that `?q=` in
    /// `feedwork serve` and `feedwork export --search` read. Empty: no index.
    public var search: [String]

    /// A schema; relations, order, children, summary and the search index are optional.
    public init(
        name: String, columns: [Column], key: [String], relations: [Relation] = [], order: [OrderTerm] = [],
        children: [ChildSchema] = [], summary: String = "", search: [String] = []
    ) {
        self.name = name
        self.columns = columns
        self.key = key
        self.relations = relations
        self.order = order
        self.children = children
        self.summary = summary
        self.search = search
    }

    private enum CodingKeys: String, CodingKey {
        case name, columns, key, relations, order, children, summary, search
    }

    /// Reads a schema; one stored by an earlier Feedwork (in `_entities`) has no `search`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        columns = try container.decode([Column].self, forKey: .columns)
        key = try container.decode([String].self, forKey: .key)
        relations = try container.decode([Relation].self, forKey: .relations)
        order = try container.decode([OrderTerm].self, forKey: .order)
        children = try container.decode([ChildSchema].self, forKey: .children)
        summary = try container.decode(String.self, forKey: .summary)
        search = try container.decodeIfPresent([String].self, forKey: .search) ?? []
    }

    /// Writes `search` only when there is one, so a schema without it reads as before.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(columns, forKey: .columns)
        try container.encode(key, forKey: .key)
        try container.encode(relations, forKey: .relations)
        try container.encode(order, forKey: .order)
        try container.encode(children, forKey: .children)
        try container.encode(summary, forKey: .summary)
        if !search.isEmpty { try container.encode(search, forKey: .search) }
    }

    /// Why `search` does not fit the schema (a name that is not a text column, or named
    /// twice); `nil` when it does.
    public var searchProblem: String? {
        var seen: Set<String> = []
        for name in search {
            guard seen.insert(name).inserted else { return "search: '\(name)' is named twice" }
            guard let index = columnIndex(name) else {
                return "search: '\(name)' is not a field of '\(self.name)' (fields: "
                    + columns.map(\.name).joined(separator: ", ") + ")"
            }
            guard columns[index].type == .text else {
                return "search: '\(name)' is \(columns[index].type.rawValue); only text fields can be searched"
            }
        }
        return nil
    }

    /// The index of the named column, or `nil`.
    public func columnIndex(_ name: String) -> Int? { columns.firstIndex { $0.name == name } }

    /// The table name of a child list.
    public func childTableName(_ child: ChildSchema) -> String { "\(name)__\(child.name)" }
}

/// A list nested in a record, stored as a child table keyed by the parent's key and the position.
public struct ChildSchema: Sendable, Hashable, Codable {
    /// The child's name: its table is `<entity>__<name>`.
    public var name: String
    /// The typed columns of one item of the list, in the order a child row follows.
    public var columns: [Column]

    /// A child list `name` whose items have `columns`.
    public init(name: String, columns: [Column]) {
        self.name = name
        self.columns = columns
    }
}

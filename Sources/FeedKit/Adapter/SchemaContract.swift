/// What a pass may change in the store's tables of its entities: a feed's `schema:` (or that of
/// `defaults:`), in the spirit of dlt's schema contracts.
///
/// ```yaml
/// schema: { new_columns: freeze, type_changes: freeze }
/// ```
///
/// The rules apply to an entity whose table the store already holds; the first pass of an entity
/// creates its table whatever they say.
public struct SchemaContract: Sendable, Hashable, Codable {
    /// What a column the stored table lacks does to a pass.
    public enum NewColumns: String, Sendable, Hashable, Codable, CaseIterable {
        /// The column is added (the default).
        case evolve
        /// The pass fails, naming the column, and the store is left as it was.
        case freeze
        /// A field the adapter finds in the records without its being declared gets no column
        /// (the json adapter's `extra: columns`); a declared field still gets its column.
        case discard
    }

    /// What a column whose type differs from the stored column's does to a pass.
    public enum TypeChanges: String, Sendable, Hashable, Codable, CaseIterable {
        /// The store follows the new type where it can (the default).
        case evolve
        /// The pass fails, naming the column and both types, and the store is left as it was.
        case freeze
    }

    /// The rule for a column the stored table lacks (`new_columns:`).
    public var newColumns: NewColumns
    /// The rule for a column whose type differs from the stored one (`type_changes:`).
    public var typeChanges: TypeChanges

    /// A contract with these rules; each left out allows the change (`evolve`).
    public init(newColumns: NewColumns = .evolve, typeChanges: TypeChanges = .evolve) {
        self.newColumns = newColumns
        self.typeChanges = typeChanges
    }

    /// Every change allowed: the default.
    public static let evolve = SchemaContract()

    /// Whether a rule refuses a change to a stored table (`freeze`), which the store checks.
    public var freezes: Bool { newColumns == .freeze || typeChanges == .freeze }
}

import FeedKit
import Foundation

/// A column of an entity's table that the entity's fields no longer declare: kept with its
/// values, NULL in new rows, until `feedwork drop ENTITY --column C` removes it, or a field
/// declares it again (revived, its values kept, converted first when its type changed).
///
/// The pass that stops declaring it marks it in `_entities.retired` (a JSON array of these, NULL
/// when none), in its transaction, with the column's type and the time; `feedwork schema`
/// shows the marks.
public struct RetiredColumn: Sendable, Hashable, Codable {
    public var name: String
    /// The type the column had when it was retired (the type its values still have).
    public var type: ColumnType
    /// When the pass that retired it prepared the store (ISO 8601 UTC).
    public var retiredAt: String

    public init(name: String, type: ColumnType, retiredAt: String) {
        self.name = name
        self.type = type
        self.retiredAt = retiredAt
    }

    private enum CodingKeys: String, CodingKey {
        case name, type
        case retiredAt = "retired_at"
    }

    /// The marks of `_entities.retired`; none for NULL or for text that is not such an array.
    package static func decode(_ text: String?) -> [RetiredColumn] {
        guard let text else { return [] }
        return (try? JSONDecoder().decode([RetiredColumn].self, from: Data(text.utf8))) ?? []
    }

    /// The text of `_entities.retired` for `marks`: NULL (`nil`) when there are none.
    package static func encode(_ marks: [RetiredColumn]) -> String? {
        guard !marks.isEmpty, let data = try? JSONEncoder().encode(marks) else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    /// The marks once `declared` replaces `stored` in a store that had `marks`: those still not
    /// declared, then the stored columns that `declared` lacks, retired at `time`. A column
    /// declared again loses its mark.
    package static func after(
        _ marks: [RetiredColumn], stored: EntitySchema, declared: EntitySchema, at time: String
    ) -> [RetiredColumn] {
        marks.filter { declared.columnIndex($0.name) == nil }
            + stored.columns.filter { column in
                declared.columnIndex(column.name) == nil && !marks.contains { $0.name == column.name }
            }.map { RetiredColumn(name: $0.name, type: $0.type, retiredAt: time) }
    }

    /// `stored` with the columns of `marks` that `declared` declares again, as their table has
    /// them: so that a revived column whose type changed is converted like any other
    /// (``SchemaPlan``).
    package static func reviving(_ marks: [RetiredColumn], in stored: EntitySchema, declared: EntitySchema)
        -> EntitySchema
    {
        var schema = stored
        for mark in marks where declared.columnIndex(mark.name) != nil && stored.columnIndex(mark.name) == nil {
            schema.columns.append(Column(mark.name, mark.type))
        }
        return schema
    }

    /// The marks of every entity of `store` that has some, by entity name.
    ///
    /// - Throws: ``StoreError`` when the store cannot be read.
    package static func marks(in store: any StoreReading) async throws -> [String: [RetiredColumn]] {
        var marks: [String: [RetiredColumn]] = [:]
        let rows = try await store.query(
            "SELECT name, CAST(retired AS TEXT) AS retired FROM _entities WHERE retired IS NOT NULL", arguments: [])
        for row in rows {
            guard case .text(let name)? = row["name"], case .text(let text)? = row["retired"] else { continue }
            let list = decode(text)
            if !list.isEmpty { marks[name] = list }
        }
        return marks
    }
}

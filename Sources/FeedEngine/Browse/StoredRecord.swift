import FeedKit
import FeedStore

/// One record of an entity with its child rows, and for an entity kept with history
/// (`append`) each version of it.
public struct StoredRecord: Sendable {
    /// The record's rows: one, or its versions oldest first.
    public var versions: EntityPage
    /// The rows of each child table that belong to the record.
    public var children: [EntityPage]
}

extension StoreBrowser {
    /// The most versions and child rows a record shows.
    public static let recordRows = 200

    /// The record of `entity` that `feed` wrote under `key`, or `nil` when there is none.
    ///
    /// - Throws: a usage ``ExportError`` for an unknown entity.
    public func record(entity: String, feed: String, key: String) async throws -> StoredRecord? {
        guard let schema = try await schema(of: entity) else {
            throw ExportError.unknownName("no entity '\(entity)' in the store")
        }
        func rows(of table: String) async throws -> EntityPage {
            var request = ExportRequest(entity: table)
            request.filters = [
                FieldCondition(field: "_feed", op: .equal, value: feed),
                FieldCondition(field: "_key", op: .equal, value: key),
            ]
            return try await page(request, limit: Self.recordRows)
        }
        let versions = try await rows(of: entity)
        guard !versions.rows.isEmpty else { return nil }
        var children: [EntityPage] = []
        for child in schema.children { children.append(try await rows(of: schema.childTableName(child))) }
        return StoredRecord(versions: versions, children: children)
    }
}

import FeedKit
import Foundation

/// The schemas recorded in `_entities` (so an export or a reader needs no config), read back
/// once for every driver.
extension StoreReading {
    /// The schemas of every entity the store holds, by name.
    package func schemas() async throws -> [String: EntitySchema] {
        try await readOneSQL(StoreSchemas.read(in:))
    }
}

/// Reading `_entities` on a connection, in the transaction under way when there is one (a
/// schema's preparation or drop reads what it is about to change).
package enum StoreSchemas {
    /// The schemas recorded in `_entities`, by entity name.
    package static func read(in connection: any SQLConnection) throws -> [String: EntitySchema] {
        var result: [String: EntitySchema] = [:]
        for row in try connection.rows("SELECT name, schema FROM _entities", []) {
            result[row[0].text ?? ""] = try JSONDecoder().decode(
                EntitySchema.self, from: Data((row[1].text ?? "").utf8))
        }
        return result
    }
}

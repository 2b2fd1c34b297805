import FeedKit

/// The schemas recorded in `_entities` (so an export or a reader needs no config), read back
/// once for every driver.
extension StoreReading {
    /// The schemas of every entity the store holds, by name.
    package func schemas() async throws -> [String: EntitySchema] {
        try await readOneSQL { try $0.entitySchemas() }
    }
}

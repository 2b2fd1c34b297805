import FeedEngine
import FeedKit
import FeedTestSupport
import Foundation
import Testing

/// `FeedHarness` reads and changes its store through the engine, alike on both stores, and
/// leaves no PostgreSQL schema behind.
@Suite("FeedHarness")
struct FeedHarnessTests {
    static func harness(_ store: HarnessStore) throws -> FeedHarness {
        try FeedHarness(
            registry: AdapterRegistry([ItemsAdapter.self]),
            yaml: "feeds:\n  - { name: items, adapter: items, url: items.json }\n",
            files: ["items.json": itemsJSON([("a", 1), ("b", 2), ("c", 3)])], store: store)
    }

    @Test(arguments: HarnessStore.available)
    func storedRowsReadAnEntityAsAPassDoes(store: HarnessStore) async throws {
        let harness = try Self.harness(store)
        _ = try await harness.run()
        let rows = try await harness.storedRows().rows(of: "item", where: ["value>1"], order: ["-value"], limit: nil)
        #expect(rows.map { $0["id"] } == [.text("c"), .text("b")])
    }

    @Test(arguments: HarnessStore.available)
    func executeChangesTheStoreThatRowsRead(store: HarnessStore) async throws {
        let harness = try Self.harness(store)
        _ = try await harness.run()
        try await harness.execute("UPDATE item SET value = 10 WHERE id = 'a'")
        let rows = try await harness.rows("SELECT value FROM item WHERE id = $1", [.text("a")])
        #expect(rows == [["value": .integer(10)]])
    }

    @Test func aPostgreSQLHarnessDropsItsSchemaWhenItGoes() async throws {
        guard HarnessStore.available.contains(.postgres) else { return }
        var config: FeedsConfig?
        do {
            let harness = try Self.harness(.postgres)
            _ = try await harness.run()
            config = try harness.config()
            #expect(try config?.storeExists() == true)
        }
        #expect(try config?.storeExists() == false, "the schema went with the harness")
    }
}

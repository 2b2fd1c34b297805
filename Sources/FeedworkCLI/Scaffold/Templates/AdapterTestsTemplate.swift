/// The scaffold's tests, `Tests/<Name>FeedTests/<Name>AdapterTests.swift`: the feed loads what a
/// loopback server lists, and a bad record is rejected with its reason.
enum AdapterTestsTemplate {
    static func text(_ name: AdapterName) -> String {
        ##"""
        import \##(name.typePrefix)Feed
        import FeedEngine
        import FeedKit
        import FeedTestSupport
        import Foundation
        import Testing

        /// The \##(name.name) adapter end to end: a real HTTP server on 127.0.0.1 (`LoopbackServer`) answers, and
        /// `FeedHarness` runs the feed through Feedwork's engine into a temporary SQLite store.
        @Suite("\##(name.typePrefix) adapter")
        struct \##(name.typePrefix)AdapterTests {
            static let registry = AdapterRegistry([\##(name.typePrefix)Adapter.self])

            /// A feeds.yaml with one \##(name.name) feed reading `url`, in a temporary folder of its own.
            func harness(url: String) throws -> FeedHarness {
                try FeedHarness(
                    registry: Self.registry,
                    yaml: """
                        feeds:
                          - name: \##(name.name)
                            adapter: \##(name.name)
                            url: \(url)
                            max_reject_ratio: 1  # keep the pass when a record is rejected
                        """)
            }

            @Test func theItemsTheServerListsBecomeRows() async throws {
                let server = try LoopbackServer { _ in
                    .json(
                        #"{"items": [{"id": 1, "name": "Anvil", "stock": 12}, {"id": 2, "name": "Skates"}]}"#
                    )
                }
                defer { server.stop() }
                let harness = try harness(url: server.url("/items"))
                let report = try await harness.run()
                #expect(report.feeds.first?.status == .ok)
                let rows = try await harness.rows("SELECT id, name, stock FROM \##(name.name)_item ORDER BY id")
                #expect(rows.count == 2)
                #expect(rows.first?["name"] == .text("Anvil"))
                #expect(rows.first?["stock"] == .integer(12))
                #expect(rows.last?["stock"] == .null)
            }

            @Test func anItemWithoutANameIsRejectedWithItsReason() async throws {
                let server = try LoopbackServer { _ in
                    .json(#"{"items": [{"id": 1, "name": "Anvil"}, {"id": 2}]}"#)
                }
                defer { server.stop() }
                let harness = try harness(url: server.url("/items"))
                let report = try await harness.run()
                #expect(report.feeds.first?.status == .okWithRejects)
                #expect(try await harness.count("\##(name.name)_item") == 1)
                let rejects = try await harness.rows("SELECT path, reason FROM _rejects")
                #expect(rejects.first?["path"] == .text("$.items[1].name"))
                #expect(rejects.first?["reason"] == .text("name is missing, empty or not a string"))
            }
        }

        """##
    }
}

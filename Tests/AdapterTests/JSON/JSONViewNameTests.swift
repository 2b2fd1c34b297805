import FeedEngine
import FeedKit
import FeedTestSupport
import Foundation
import JSONFeed
import Testing

/// Each entity has a view named `<entity>_view`, so an entity of that name (`thing_view` beside
/// `thing`) would take the view's place: validation refuses it, and a run refuses one beside
/// the store's entities, on every store, leaving the store as it was.
@Suite("json adapter: an entity named as another's view")
struct JSONViewNameTests {
    static func feed(name: String, entity: String) -> String {
        """
          - name: \(name)
            adapter: json
            url: items.json
            entity: \(entity)
            key: id
            fields: { id: int }

        """
    }

    static let files = ["items.json": Data(#"[{"id":1}]"#.utf8)]

    /// The problems `validate` finds in `feeds` on `store` (whose lines come before the feeds').
    static func problems(_ feeds: String, store: HarnessStore) throws -> [String] {
        let harness = try FeedHarness(registry: JSONFeedTest.registry, yaml: "feeds:\n" + feeds, store: store)
        do {
            _ = try harness.config()
            return []
        } catch let error as ConfigError {
            return error.problems.map(\.message)
        }
    }

    /// Entities of feeds `a` and `b`, and what validation says of them.
    static let clashes = [
        (
            "thing", "thing_view",
            "feed 'b': entity 'thing_view' has the name of the view of entity 'thing' of feed 'a'; use another name"
        ),
        (
            "Thing_View", "thing",
            "feed 'b': the view of entity 'thing' would have the name of entity 'Thing_View' of feed 'a'; use another name for one of them"
        ),
    ]

    @Test(arguments: HarnessStore.available, clashes)
    func validationRefusesAnEntityNamedAsTheViewOfAnother(store: HarnessStore, clash: (String, String, String)) throws {
        let problems = try Self.problems(
            Self.feed(name: "a", entity: clash.0) + Self.feed(name: "b", entity: clash.1), store: store)
        #expect(problems == [clash.2])
    }

    /// A harness on `store` whose first pass stored `entity`, then configured to write `next`.
    static func stored(_ entity: String, then next: String, store: HarnessStore) async throws -> FeedHarness {
        let harness = try FeedHarness(
            registry: JSONFeedTest.registry, yaml: "feeds:\n" + Self.feed(name: "a", entity: entity), files: files,
            store: store)
        let first = try await harness.run()
        #expect(first.succeeded, "\(first.feeds.map(\.error))")
        try harness.setConfig("feeds:\n" + Self.feed(name: "b", entity: next))
        return harness
    }

    @Test(arguments: HarnessStore.available)
    func aRunRefusesAnEntityNamedAsTheViewOfAStoredOneAndChangesNothing(store: HarnessStore) async throws {
        let harness = try await Self.stored("thing", then: "thing_view", store: store)
        let report = try await harness.run()
        #expect(!report.succeeded)
        #expect(
            report.feeds.first?.error?.contains(
                "entity 'thing_view' has the name of the view of the store's entity 'thing'; use another name") == true,
            "\(report.feeds.map(\.error))")
        #expect(try await harness.rows("SELECT name FROM _entities").map { $0["name"] } == [.text("thing")])
        #expect(try await harness.count("thing_view") == 1, "the view of thing, still there")
    }

    @Test(arguments: HarnessStore.available)
    func aRunRefusesAnEntityWhoseViewHasTheNameOfAStoredOneAndChangesNothing(store: HarnessStore) async throws {
        let harness = try await Self.stored("thing_view", then: "thing", store: store)
        let report = try await harness.run()
        #expect(!report.succeeded)
        #expect(
            report.feeds.first?.error?.contains(
                "the view of entity 'thing' would have the name of the store's entity 'thing_view'; use another name for one of them"
            ) == true, "\(report.feeds.map(\.error))")
        #expect(try await harness.rows("SELECT name FROM _entities").map { $0["name"] } == [.text("thing_view")])
        #expect(try await harness.count("thing_view") == 1)
    }
}

import Foundation
import Testing

/// `feedwork export --changed-since RUN --include-deleted`: what a `replace` feed deleted,
/// after the changed rows, for one entity and for `--all`.
@Suite("feedwork export --include-deleted")
struct ExportDeletedCommandTests {
    let directory: URL

    init() throws {
        directory = try FeedworkProcess.makeFolder("export")
        let yaml = """
            feeds:
              - name: shop
                adapter: json
                url: items.json
                entity: item
                key: id
                write: replace
                max_delete_ratio: 1   # the passes delete most rows on purpose
                fields: { id: int, name: string, tags: { type: list, of: string } }
            """
        try Data(yaml.utf8).write(to: directory.appendingPathComponent("feeds.yaml"))
    }

    /// Runs the feed over items with these ids (each with one tag) and returns the run id.
    func run(_ ids: [Int]) async throws -> Int {
        let items = ids.map { #"{"id":\#($0),"name":"item \#($0)","tags":["t\#($0)"]}"# }
        try Data("[\(items.joined(separator: ","))]".utf8).write(to: directory.appendingPathComponent("items.json"))
        let result = try await FeedworkProcess.run(["run", "--json"], in: directory)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let report = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        let feeds = report?["feeds"] as? [[String: Any]] ?? []
        return try #require(feeds.first?["run"] as? Int)
    }

    @Test func theDeletedRowsFollowTheChangedOnesWithTheirTypedKey() async throws {
        let first = try await run([1, 2, 3])
        let second = try await run([1, 3, 4])
        let result = try await FeedworkProcess.run(
            ["export", "item", "--changed-since", String(first), "--include-deleted"], in: directory)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stdout == """
                {"id":4,"name":"item 4"}
                {"_deleted":true,"id":2,"_feed":"shop","_key":"2","_run":\(second)}

                """)
    }

    @Test func exportAllWritesTheDeletedRowsOfEachTableAndCountsThemInTheManifest() async throws {
        let first = try await run([1, 2, 3])
        _ = try await run([1])
        let result = try await FeedworkProcess.run(
            [
                "export", "--all", "--output-dir", "out", "--format", "csv", "--changed-since", String(first),
                "--include-deleted",
            ], in: directory)
        #expect(result.status == 0, "\(result.stderr)")
        let out = directory.appendingPathComponent("out")
        let manifest = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("manifest.json")))
                as? [String: Any])
        let entities = manifest["entities"] as? [[String: Any]] ?? []
        let deleted = Dictionary(
            uniqueKeysWithValues: entities.map { ($0["entity"] as? String ?? "", $0["deleted"] as? Int) })
        #expect(deleted == ["item": 2, "item__tags": 2])
        let tags = try String(contentsOf: out.appendingPathComponent("item__tags.csv"), encoding: .utf8)
        #expect(tags == "_feed,_key,_position,value,_deleted\r\nshop,2,,,true\r\nshop,3,,,true\r\n", "\(tags)")
    }

    @Test func includeDeletedWithoutChangedSinceIsAUsageError() async throws {
        _ = try await run([1])
        for arguments in [["export", "item"], ["export", "--all", "--output-dir", "out"]] {
            let result = try await FeedworkProcess.run(arguments + ["--include-deleted"], in: directory)
            #expect(result.status == 2, "\(arguments)")
            #expect(result.stderr.contains("--include-deleted needs --changed-since"), "\(result.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("out").path))
    }
}

import FeedStoreSQLite
import Foundation
import GRDB
import Testing

/// A store written by a `feedwork` with an adapter this one lacks (built from a package of its
/// own): each run records the module its adapter came from, the commands that read the store
/// still work, and `run` says which module the feed last ran with.
@Suite("Adapters a binary lacks")
struct AdapterOriginCommandTests {
    let directory: URL

    init() throws {
        directory = try FeedworkProcess.makeFolder("adapter-origin")
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Adapters/Fruit/Fixtures/data.json").standardized
        try FileManager.default.copyItem(at: fixture, to: directory.appendingPathComponent("data.json"))
    }

    func writeConfig(adapter: String) throws {
        try Data("feeds:\n  - { name: fruit, adapter: \(adapter), url: data.json }\n".utf8)
            .write(to: directory.appendingPathComponent("feeds.yaml"))
    }

    var storePath: String { directory.appendingPathComponent("feeds.sqlite").path }

    /// Runs the fruit feed, then makes its store look written by a binary whose `acme` adapter
    /// (module `AcmeFeed`) wrote the feed, and names `acme` in the config.
    func storeWrittenWithAcme() async throws {
        try writeConfig(adapter: "fruit")
        let run = try await FeedworkProcess.run(["run"], in: directory)
        try #require(run.status == 0, "\(run.stdout)\(run.stderr)")
        let queue = try DatabaseQueue(path: storePath)
        try await queue.write { db in
            try db.execute(sql: "UPDATE _runs SET adapter = 'acme', adapter_module = 'AcmeFeed'")
        }
        try queue.close()
        try writeConfig(adapter: "acme")
    }

    @Test func aRunRecordsTheModuleItsAdapterCameFrom() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        try writeConfig(adapter: "fruit")
        let run = try await FeedworkProcess.run(["run"], in: directory)
        try #require(run.status == 0, "\(run.stdout)\(run.stderr)")
        let queue = try DatabaseQueue(path: storePath)
        let modules = try await queue.read { db in
            try String.fetchAll(db, sql: "SELECT adapter || ' ' || adapter_module FROM _runs")
        }
        #expect(modules == ["fruit FruitFeed"])
    }

    @Test func runNamesTheModuleTheFeedLastRanItsAdapterFrom() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        try await storeWrittenWithAcme()
        let run = try await FeedworkProcess.run(["run"], in: directory)
        #expect(run.status == 2)
        #expect(
            run.stderr.contains(
                "feeds.yaml:2:29: error: unknown adapter 'acme'"), "\(run.stderr)")
        #expect(run.stderr.contains("feed 'fruit' last ran with it from module AcmeFeed"), "\(run.stderr)")
    }

    @Test func theCommandsThatReadTheStoreStillWork() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        try await storeWrittenWithAcme()
        let warning = "warning: feed 'fruit' names adapter 'acme', which this feedwork does not register"

        let list = try await FeedworkProcess.run(["list"], in: directory)
        #expect(list.status == 0, "\(list.stderr)")
        #expect(list.stderr.contains(warning), "\(list.stderr)")
        #expect(list.stdout.contains("fruit") && list.stdout.contains("acme"), "\(list.stdout)")

        let export = try await FeedworkProcess.run(["export", "fruit"], in: directory)
        #expect(export.status == 0, "\(export.stderr)")
        #expect(export.stdout.contains(#""type":"apple""#), "\(export.stdout)")

        let runs = try await FeedworkProcess.run(["runs", "--json"], in: directory)
        #expect(runs.status == 0, "\(runs.stderr)")
        #expect(runs.stdout.contains(#""adapter" : "acme""#), "\(runs.stdout)")
    }

    @Test func aMisspeltAdapterWithoutAStoreIsStillAnErrorWithItsGuess() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        try writeConfig(adapter: "friut")
        let run = try await FeedworkProcess.run(["run"], in: directory)
        #expect(run.status == 2)
        #expect(run.stderr.contains("unknown adapter 'friut'; did you mean 'fruit'?"), "\(run.stderr)")
        #expect(!run.stderr.contains("last ran"), "\(run.stderr)")
    }
}

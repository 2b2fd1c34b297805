import FeedKit
import Foundation
import Testing

/// `--json` on the inspection commands: one JSON document on stdout, snake_case keys, and the
/// same keys in every object (an unknown value is `null`, not a missing key).
@Suite("Inspection commands with --json")
struct InspectionJSONTests {
    let directory: URL

    init() throws {
        directory = try FeedworkProcess.makeFolder("inspect")
        try write("data.json", #"{"fruit":[{"type":"apple","price":149,"weight":120}]}"#)
        try write("feeds.yaml", "feeds:\n  - { name: fruit, adapter: fruit, url: data.json }\n")
    }

    func write(_ name: String, _ text: String) throws {
        try Data(text.utf8).write(to: directory.appendingPathComponent(name))
    }

    func json(_ arguments: [String], status: Int32 = 0) async throws -> Any {
        let result = try await FeedworkProcess.run(arguments, in: directory)
        #expect(result.status == status, "\(result.stderr)")
        return try JSONSerialization.jsonObject(with: Data(result.stdout.utf8))
    }

    @Test func validateReportsAValidConfigWithItsCounts() async throws {
        let report = try await #require(try json(["validate", "--json"]) as? [String: Any])
        #expect(report["valid"] as? Bool == true)
        #expect(report["feeds"] as? Int == 1)
        #expect(report["enabled"] as? Int == 1)
        #expect((report["problems"] as? [Any])?.isEmpty == true)
    }

    @Test func validateReportsEveryProblemWithItsPlaceAndExitsTwo() async throws {
        try write("feeds.yaml", "defaults:\n  retires: 3\nfeeds:\n  - { name: fruit, adapter: fruit }\n")
        let report = try await #require(try json(["validate", "--json"], status: 2) as? [String: Any])
        #expect(report["valid"] as? Bool == false)
        #expect(report.keys.contains("store") && report["store"] is NSNull)
        let problems = try #require(report["problems"] as? [[String: Any]])
        #expect(problems.count == 2)
        #expect(problems.first?["line"] as? Int == 2)
        #expect(problems.first?["column"] as? Int == 3)
        #expect((problems.first?["message"] as? String)?.contains("did you mean 'retries'") == true)
    }

    @Test func adaptersListOptionsWithRequirementAndEntitiesWithColumns() async throws {
        let document = try await #require(try json(["adapters", "--json"]) as? [String: Any])
        let adapters = try #require(document["adapters"] as? [[String: Any]])
        let fruit = try #require(adapters.first { $0["name"] as? String == "fruit" })
        let url = try #require((fruit["options"] as? [[String: Any]])?.first { $0["name"] as? String == "url" })
        #expect(url["required"] as? Bool == true)
        #expect(url["default"] is NSNull)
        let entity = try #require((fruit["entities"] as? [[String: Any]])?.first)
        #expect(entity["entity"] as? String == "fruit")
        #expect(entity["key"] as? [String] == ["type"])
        let json = try #require(adapters.first { $0["name"] as? String == "json" })
        #expect((json["entities"] as? [Any])?.isEmpty == true)
    }

    @Test func adaptersNameEachAdaptersModuleAndFeedKitsVersion() async throws {
        let document = try await #require(try json(["adapters", "--json"]) as? [String: Any])
        #expect(document["feedkit_version"] as? String == FeedSDK.version)
        let adapters = try #require(document["adapters"] as? [[String: Any]])
        let modules = Dictionary(
            uniqueKeysWithValues: adapters.map { ($0["name"] as? String, $0["module"] as? String) })
        #expect(modules["fruit"] == "FruitFeed")
        #expect(modules["json"] == "JSONFeed")
        #expect(adapters.count == modules.count && modules.values.allSatisfy { $0?.hasSuffix("Feed") == true })
    }

    @Test func listShowsNullsBeforeTheFirstRunAndRowCountsAfter() async throws {
        let before = try await #require((try json(["list", "--json"]) as? [[String: Any]])?.first)
        #expect(before["feed"] as? String == "fruit")
        #expect(before["last_run"] is NSNull)
        #expect(before["status"] is NSNull)
        _ = try await FeedworkProcess.run(["run"], in: directory)
        let after = try await #require((try json(["list", "--json"]) as? [[String: Any]])?.first)
        #expect(after["status"] as? String == "ok")
        #expect(after["rows"] as? [String: Int] == ["fruit": 1])
    }
}

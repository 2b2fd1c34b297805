import FeedEngine
import FeedFixtures
import FeedKit
import FeedTestSupport
import Foundation
import JSONFeed
import Testing

@Suite("json adapter: validation")
struct JSONValidationTests {
    /// The problems `feedwork validate` reports for a config holding one json feed.
    static func problems(_ feed: String) throws -> [String] {
        let harness = try FeedHarness(registry: JSONFeedTest.registry, yaml: "feeds:\n" + feed)
        do {
            _ = try harness.config()
            return []
        } catch let error as ConfigError {
            return error.problems.map { "\($0.location.line):\($0.location.column): \($0.message)" }
        }
    }

    static let valid = """
          - name: items
            adapter: json
            url: https://api.example.com/items
            records: $.items
            entity: item
            key: id
            fields:
              id: int
              price: { path: cost.amount, type: decimal }
        """

    @Test func aValidFeedLoads() throws {
        #expect(try Self.problems(Self.valid).isEmpty)
    }

    @Test func anUnknownKeyInsideAFieldIsReportedAtItsLine() throws {
        let problems = try Self.problems(
            Self.valid.replacingOccurrences(of: "type: decimal }", with: "type: decimal, devide: 100 }"))
        #expect(problems.count == 1)
        #expect(problems.first?.hasPrefix("10:50: unknown key 'devide'") == true, "\(problems)")
        #expect(problems.first?.contains("did you mean 'divide'?") == true)
    }

    @Test func aBadPathIsReportedAtThePath() throws {
        let problems = try Self.problems(Self.valid.replacingOccurrences(of: "cost.amount", with: "cost..amount"))
        #expect(problems == ["10:22: feed 'items': bad path 'cost..amount': a name is missing after '.'"])
    }

    @Test func aBadRecordsPathIsReported() throws {
        let problems = try Self.problems(Self.valid.replacingOccurrences(of: "$.items", with: "$.items[x]"))
        #expect(problems.first?.hasPrefix("5:14: feed 'items': bad path '$.items[x]'") == true, "\(problems)")
    }

    @Test func aKeyFieldThatIsNotDeclaredIsReportedAtTheKey() throws {
        let problems = try Self.problems(Self.valid.replacingOccurrences(of: "key: id", with: "key: [id, sku]"))
        #expect(problems.count == 1)
        #expect(problems.first?.hasPrefix("7:10: feed 'items': key field 'sku' is not declared in fields") == true)
    }

    @Test func anUnknownTypeInTheShortFormIsReportedAtTheType() throws {
        let problems = try Self.problems(Self.valid.replacingOccurrences(of: "id: int", with: "id: integer"))
        #expect(problems.first?.hasPrefix("9:11: feed 'items': unknown field type 'integer'") == true, "\(problems)")
    }

    @Test func aKeyOfAnotherPaginationTypeIsUnknown() throws {
        let problems = try Self.problems(
            Self.valid + "\n    pagination: { type: cursor, cursor_path: next, total_pages_path: pages }")
        #expect(problems.first?.contains("unknown key 'total_pages_path'") == true, "\(problems)")
    }

    @Test func parallelWithoutATotalIsRefused() throws {
        let problems = try Self.problems(Self.valid + "\n    pagination: { type: offset, limit: 10, parallel: 4 }")
        #expect(problems.first?.contains("parallel needs the total up front") == true, "\(problems)")
        #expect(problems.first?.hasPrefix("11:54:") == true, "\(problems)")
    }

    @Test func authKeysAreCheckedPerType() throws {
        let missing = try Self.problems(Self.valid + "\n    auth: { type: basic, username: a, token: b }")
        #expect(missing.contains { $0.contains("missing key 'password'") }, "\(missing)")
        let unknown = try Self.problems(Self.valid + "\n    auth: { type: basic, username: a, password: c, token: b }")
        #expect(unknown.contains { $0.contains("unknown key 'token'") }, "\(unknown)")
    }

    @Test func badValuesOfKnownOptionsPointAtTheValue() throws {
        let checks: [(String, String, String)] = [
            ("type: decimal }", "type: money, currency: euro }", "currency must be a three-letter"),
            ("type: decimal }", "type: decimal, divide: 0 }", "divide must be a positive number"),
            ("type: decimal }", "type: timestamp, format: soon }", "unknown timestamp format 'soon'"),
            ("type: decimal }", "type: int, default: many }", "default 'many' does not fit type int"),
            ("key: id", "key: id\n    write: upsert", "write must be merge, replace or append"),
            ("entity: item", "entity: 2items", "entity name '2items'"),
        ]
        for (old, new, message) in checks {
            let problems = try Self.problems(Self.valid.replacingOccurrences(of: old, with: new))
            #expect(problems.count == 1 && problems[0].contains(message), "\(new): \(problems)")
        }
    }

    @Test func theDefaultConfigLoadsWithItsJSONFeed() throws {
        var root = URL(fileURLWithPath: #filePath)
        for _ in 0..<4 { root.deleteLastPathComponent() }
        let config = try ConfigLoader(registry: BuiltinSuites.registry, environment: [:])
            .load(path: root.appendingPathComponent("feeds.yaml").path)
        #expect(config.feeds.contains { $0.adapterName == "json" })
    }
}

import FeedEngine
import FeedFixtures
import FeedKit
import Foundation
import Testing

@Suite("Config loading")
struct ConfigLoaderTests {
    let loader = ConfigLoader(registry: AdapterRegistry([ItemsAdapter.self]), environment: ["TOKEN": "s3cr3t-value"])

    func problems(_ yaml: String) -> [String] { loader.problems(yaml) }

    @Test func aValidConfigLoadsWithDefaultsAndRelativeStore() throws {
        let config = try loader.load(
            yaml: """
                store: data/feeds.sqlite
                defaults: { timeout: 10s, retries: 2, concurrency: 3 }
                feeds:
                  - { name: one, adapter: items, url: a.json }
                  - { name: two, adapter: items, url: b.json, enabled: false, timeout: 1m }
                """, path: "feeds.yaml", directory: "/srv/feeds")
        #expect(config.storePath == "/srv/feeds/data/feeds.sqlite")
        #expect(config.concurrency == 3)
        #expect(config.feeds.map(\.name) == ["one", "two"])
        #expect(config.feeds[0].policy.timeout == .seconds(10))
        #expect(config.feeds[0].policy.retries == 2)
        #expect(config.feeds[1].policy.timeout == .minutes(1))
        #expect(config.feeds[1].enabled == false)
    }

    @Test func aYAMLSyntaxErrorNamesItsLineAndColumn() {
        #expect(
            problems("feeds:\n  - name: one\n    adapter: [items\n").first?.hasPrefix(
                "feeds.yaml:4:1: error: YAML syntax") == true)
    }

    @Test func aWrongTypeNamesTheValue() {
        #expect(
            problems("defaults: { retries: many }\nfeeds: []\n")
                == ["feeds.yaml:1:22: error: expected an integer, found 'many'"])
    }

    @Test func anUnknownTopLevelKeySuggestsTheNearestOne() {
        #expect(
            problems("feed: []\n").contains(
                "feeds.yaml:1:1: error: unknown key 'feed' at the top level; did you mean 'feeds'?"))
    }

    @Test func anUnknownAdapterOptionIsAnErrorAtItsKey() {
        #expect(
            problems("feeds:\n  - name: one\n    adapter: items\n    url: a.json\n    urll: b.json\n")
                == ["feeds.yaml:5:5: error: unknown key 'urll' in feeds[0]; did you mean 'url'?"])
    }

    @Test func aDuplicateFeedNamePointsAtTheSecondOne() {
        #expect(
            problems(
                "feeds:\n  - { name: one, adapter: items, url: a.json }\n  - { name: one, adapter: items, url: b.json }\n"
            )
                == ["feeds.yaml:3:13: error: duplicate feed name 'one' (first used at line 2)"])
    }

    @Test func anUnknownAdapterListsTheRegisteredOnes() {
        #expect(
            problems("feeds:\n  - { name: one, adapter: itemz, url: a.json }\n")
                == [
                    "feeds.yaml:2:27: error: unknown adapter 'itemz'; did you mean 'items'?; registered adapters: items"
                ])
    }

    @Test func anUnsetEnvironmentVariableIsNamed() {
        #expect(
            problems("feeds:\n  - { name: one, adapter: items, url: \"${MISSING}/a.json\" }\n")
                == [
                    "feeds.yaml:2:39: error: environment variable MISSING is not set (write ${MISSING:-default} for a default)"
                ])
    }

    @Test func environmentValuesAreSubstitutedAndBecomeSecrets() throws {
        let config = try loader.load(
            yaml: "feeds:\n  - { name: one, adapter: items, url: \"https://x.test/a?key=${TOKEN}\" }\n",
            path: "feeds.yaml",
            directory: "/tmp")
        #expect(config.redactor.redact("https://x.test/a?key=s3cr3t-value") == "https://x.test/a?key=***")
    }

    @Test func aDefaultIsUsedForAnUnsetVariable() throws {
        let config = try loader.load(
            yaml: "store: \"${STORE:-local.sqlite}\"\nfeeds: []\n", path: "feeds.yaml", directory: "/tmp")
        #expect(config.storePath == "/tmp/local.sqlite")
    }

    @Test func aBadDurationIsAnError() {
        #expect(
            problems("defaults: { timeout: 10 minutes }\nfeeds: []\n").first?.hasPrefix(
                "feeds.yaml:1:22: error: '10 minutes' is not a duration") == true)
    }

    @Test func aBadDateTemplateIsAnError() {
        #expect(
            problems("feeds:\n  - { name: one, adapter: items, url: \"a.json?d={{yesterday}}\" }\n")
                == ["feeds.yaml:2:39: error: bad template '{{yesterday}}': unknown value 'yesterday'; use today or now"]
        )
    }

    @Test func aMissingRequiredKeyIsNamed() {
        #expect(
            problems("feeds:\n  - { name: one, url: a.json }\n") == [
                "feeds.yaml:2:5: error: missing key 'adapter' in feeds[0]"
            ])
    }

    @Test func anOptionErrorFromTheAdapterPointsAtTheOption() {
        #expect(
            problems("feeds:\n  - { name: one, adapter: items, url: a.json, fail_after: -1 }\n")
                == ["feeds.yaml:2:59: error: feed 'one': fail_after must not be negative"])
    }

    @Test func tenThousandFeedsWrittenOutInFullLoad() throws {
        var yaml = "feeds:\n"
        for n in 1...10_000 {
            yaml +=
                "  - { name: f\(n), adapter: items, url: 'http://api.example/items.json?n=\(n)', every: \(n % 10 + 1)m }\n"
        }
        let config = try loader.load(yaml: yaml, path: "feeds.yaml", directory: "/tmp")
        #expect(config.feeds.count == 10_000)
    }

    @Test func anAliasBombIsRefused() {
        var yaml = "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n"
        for level in 1..<9 {
            yaml +=
                "a\(level): &a\(level) [" + Array(repeating: "*a\(level - 1)", count: 10).joined(separator: ", ")
                + "]\n"
        }
        yaml += "feeds: []\n"
        let found = problems(yaml)
        #expect(found.contains { $0.contains("expands to more than 1000000 nodes") })
    }

    @Test func everyProblemIsReportedAtOnce() {
        let found = problems(
            """
            defaults: { timeout: soon }
            feeds:
              - { name: one, adapter: nope, url: a.json }
              - { name: two, adapter: items, url: b.json, extra: 1 }
            """)
        #expect(found.count == 3)
    }

    @Test func aFileLargerThanTheLimitIsRefusedBeforeParsing() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("big-\(UUID().uuidString).yaml")
        defer { try? FileManager.default.removeItem(at: url) }
        try Data(repeating: 0x23, count: ConfigLoader.maximumFileBytes + 1).write(to: url)
        #expect(throws: ConfigError.self) { try loader.load(path: url.path) }
        do {
            _ = try loader.load(path: url.path)
        } catch let error as ConfigError {
            #expect(error.problems.first?.location.line == 1)
            #expect(error.problems.first?.message.contains("limit") == true)
        }
    }
}

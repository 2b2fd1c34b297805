import FeedEngine
import FeedKit
import Foundation
import Testing

/// Feed names are 1 to 64 plain ASCII characters and never come from the environment.
@Suite("Config: feed names")
struct FeedNameTests {
    func problems(_ name: String, environment: [String: String] = [:]) -> [String] {
        do {
            _ = try ConfigLoader(registry: AdapterRegistry([ItemsAdapter.self]), environment: environment)
                .load(
                    yaml: "feeds:\n  - name: \"\(name)\"\n    adapter: items\n    url: a.json\n", path: "feeds.yaml",
                    directory: "/tmp")
            return []
        } catch let error as ConfigError {
            return error.problems.map(\.description)
        } catch {
            return ["unexpected: \(error)"]
        }
    }

    @Test func aLookAlikeNameIsRefusedNamingTheCharacter() {
        let found = problems("fruit-\u{430}")
        #expect(found.count == 1)
        #expect(found.first?.hasPrefix("feeds.yaml:2:11: error: feed name 'fruit-\u{430}' must be") == true, "\(found)")
        #expect(found.first?.contains("is U+0430, not ASCII") == true, "\(found)")
    }

    @Test func aVeryLongNameIsRefusedWithoutBeingPrintedWhole() {
        let found = problems(String(repeating: "f", count: 200_000))
        #expect(found.count == 1)
        #expect(found.first?.contains("(200000 characters") == true)
        #expect((found.first?.count ?? 0) < 300)
    }

    @Test func aNameOf64CharactersIsAccepted() {
        #expect(problems(String(repeating: "f", count: 64)).isEmpty)
    }

    @Test func aNameFromAnEnvironmentVariableIsRefusedWithoutPrintingIt() {
        let found = problems("${FEED}", environment: ["FEED": "secret-feed-name"])
        #expect(found.count == 1)
        #expect(found.first?.contains("comes from an environment variable") == true, "\(found)")
        #expect(!found.joined().contains("secret-feed-name"))
    }
}

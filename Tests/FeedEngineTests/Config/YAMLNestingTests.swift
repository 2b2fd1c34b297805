import FeedEngine
import FeedFixtures
import FeedKit
import Foundation
import Testing

/// A YAML text nested deeper than Yams can compose without overflowing the stack is refused
/// before Yams sees it, at the line and column where it goes too deep.
@Suite("Config loading: YAML nesting depth")
struct YAMLNestingTests {
    let loader = ConfigLoader(registry: AdapterRegistry([ItemsAdapter.self]), environment: [:])
    static let levels = 1_000_000

    func problems(_ yaml: String) -> [String] { loader.problems(yaml) }

    @Test func flowSequencesAMillionLevelsDeepAreRefusedWhereTheyPassTheBound() {
        let text =
            "feeds:\n  - { name: one, adapter: items, url: a.json, x: " + String(repeating: "[", count: Self.levels)
        // Levels: `feeds:` 1, the line's indentation 2, `- ` 3, `{` 4, then the 509th `[` is the
        // 513th level, at column 49 + 509.
        #expect(problems(text) == ["feeds.yaml:2:\(49 + 509): error: the YAML is nested more than 512 levels deep"])
    }

    @Test func flowMappingsAMillionLevelsDeepAreRefusedWithAnchorsAndTags() {
        let text = "feeds: []\nx: " + String(repeating: "&a !!map {a: ", count: Self.levels)
        #expect(problems(text).first?.contains("the YAML is nested more than 512 levels deep") == true)
    }

    @Test func compactSequencesAMillionLevelsDeepAreRefused() {
        let text = "feeds: []\nx:\n  " + String(repeating: "- ", count: Self.levels) + "a"
        #expect(problems(text) == ["feeds.yaml:3:\(3 + 2 * 510): error: the YAML is nested more than 512 levels deep"])
    }

    @Test func indentationDeeperThanTheBoundIsRefused() {
        let lines = (0..<600).map { String(repeating: " ", count: $0) + "k\($0):" }
        let text = "feeds: []\nx:\n" + lines.map { "  " + $0 }.joined(separator: "\n") + " 1"
        #expect(problems(text) == ["feeds.yaml:514:514: error: the YAML is nested more than 512 levels deep"])
    }

    @Test func bracketsInQuotesCommentsPlainScalarsAndBlockScalarsAreNotLevels() {
        let brackets = String(repeating: "[", count: 600)
        let text = """
            feeds:
              - name: one  # \(brackets)
                adapter: items
                url: "a.json?\(brackets)"
                note: 'it''s \(brackets)'
                path: $.items\(brackets)
                script: |
            \((0..<600).map { String(repeating: " ", count: 6 + $0) + "line" }.joined(separator: "\n"))
            """
        let problems = problems(text)
        #expect(!problems.contains { $0.contains("nested more than") }, "\(problems)")
    }
}

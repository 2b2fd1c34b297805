import FeedTestSupport
import Foundation
import Testing

/// Every `yaml` block of the README and of the json adapter's pages under docs/json that is a
/// whole feeds.yaml (it starts with a top-level key such as `feeds:`) is one that `feedwork
/// validate` accepts, so the examples are tested where they are written. A block that shows part
/// of a feed (its lines indented, or a feed of a list) is left out; DocsJSONExampleTests runs
/// those that need an API.
@Suite("README and docs/json: every whole feeds.yaml validates")
struct DocsYAMLExampleTests {
    /// A fenced `yaml` block of a docs page: where it starts and its text.
    struct Block: CustomStringConvertible, Sendable {
        var file: String
        var line: Int
        var text: String
        var description: String { "\(file):\(line)" }

        /// Whether the block is a whole feeds.yaml: its first line that is not blank or a
        /// comment is a top-level key.
        var isWholeConfig: Bool {
            let first = text.split(separator: "\n").first { line in
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                return !trimmed.isEmpty && !trimmed.hasPrefix("#")
            }
            guard let first, let character = first.first else { return false }
            return character.isLetter
        }

        /// A stand-in value for each `${NAME}` the block reads from the environment (a secret
        /// the reader sets), so that it validates as it would with them set.
        var secrets: [String: String] {
            let names = text.matches(of: /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/).map { String($0.output.1) }
            return Dictionary(names.map { ($0, "example-\($0.lowercased())") }) { first, _ in first }
        }
    }

    static let folder = Documentation.root.appendingPathComponent("docs/json")

    /// The whole-config `yaml` blocks of the README and of every Markdown page in docs/json, in
    /// file and line order.
    static var blocks: [Block] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        let pages = ["README.md"] + names.filter { $0.hasSuffix(".md") }.sorted().map { "docs/json/" + $0 }
        return pages.flatMap { page in
            yamlBlocks(in: Documentation.text(page), file: page).filter(\.isWholeConfig)
        }
    }

    /// The fenced `yaml` blocks of `text`, without the indentation of their fence.
    static func yamlBlocks(in text: String, file: String) -> [Block] {
        var blocks: [Block] = []
        var current: (start: Int, indent: Int, lines: [String])?
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if current == nil, trimmed == "```yaml" {
                current = (number + 1, line.prefix { $0 == " " }.count, [])
            } else if let block = current, trimmed == "```" {
                blocks.append(Block(file: file, line: block.start, text: block.lines.joined(separator: "\n") + "\n"))
                current = nil
            } else if let block = current {
                current?.lines.append(String(line.dropFirst(min(block.indent, line.prefix { $0 == " " }.count))))
            }
        }
        return blocks
    }

    @Test func thePagesHaveExamples() {
        #expect(Self.blocks.count >= 15, "\(Self.blocks)")
    }

    @Test(arguments: blocks)
    func theExampleValidates(_ block: Block) async throws {
        let directory = try FeedworkProcess.makeFolder("docs-yaml")
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data(block.text.utf8).write(to: directory.appendingPathComponent("feeds.yaml"))
        let result = try await FeedworkProcess.run(["validate"], in: directory, environment: block.secrets)
        #expect(result.status == 0, "\(block): \(result.stdout)\(result.stderr)")
    }
}

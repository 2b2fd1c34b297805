import ArgumentParser
import Foundation
import Testing

@testable import FeedworkCLI

/// Every example in the commands' help, in the README and in the docs pages parses: the examples are what users
/// copy first.
@Suite("Help examples")
struct HelpExampleTests {
    /// The `feedwork ...` lines under "Examples:" in the help of the root command and each
    /// subcommand, without the description the root's examples have after two spaces.
    static let examples: [String] = ([FeedworkCommand.self] + FeedworkCommand.configuration.subcommands).flatMap {
        command in
        let discussion = command.configuration.discussion
        guard let start = discussion.range(of: "Examples:") else { return [String]() }
        return discussion[start.upperBound...].split(separator: "\n")
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { $0.hasPrefix("feedwork ") }
            .map { $0.components(separatedBy: "  ")[0] }
    }

    /// The `feedwork ...` and `swift run feedwork ...` lines of the README and the docs pages,
    /// without `# comments`.
    static let documentationExamples: [String] = Documentation.pages.flatMap { page in
        Documentation.text(page).split(separator: "\n")
            .map { $0.hasPrefix("swift run ") ? $0.dropFirst("swift run ".count) : $0[...] }
            .filter { $0.hasPrefix("feedwork ") }
            // The command alone: without a comment, a redirection or a pipe.
            .map { $0.components(separatedBy: " #")[0].components(separatedBy: " > ")[0] }
            .map { $0.components(separatedBy: " | ")[0].trimmingCharacters(in: .whitespaces) }
    }

    @Test func theHelpAndTheDocumentationHaveExamples() async {
        #expect(Self.examples.count >= 20)
        #expect(Self.documentationExamples.count >= 15)
    }

    @Test(arguments: examples)
    func theHelpExampleParses(_ line: String) async throws {
        let arguments = Array(try Self.shellWords(line).dropFirst())
        try Self.expectParses(arguments, line)
    }

    @Test(arguments: documentationExamples)
    func theDocumentationExampleParses(_ line: String) async throws {
        let arguments = Array(try Self.shellWords(line).dropFirst())
        try Self.expectParses(arguments, line)
    }

    /// Parses `arguments` as `feedwork` would; requests such as `--help` or
    /// `--generate-completion-script`, which argument-parser reports by throwing, count as parsed.
    static func expectParses(_ arguments: [String], _ line: String) throws {
        do {
            _ = try FeedworkCommand.parseAsRoot(arguments)
        } catch {
            #expect(FeedworkCommand.exitCode(for: error) == .success, "\(line): \(FeedworkCommand.message(for: error))")
        }
    }

    /// `line` split into words as a shell would: at spaces, except inside single or double quotes.
    static func shellWords(_ line: String) throws -> [String] {
        var words: [String] = []
        var word: String?
        var quote: Character?
        for character in line {
            if let open = quote {
                if character == open { quote = nil } else { word?.append(character) }
            } else if character == "'" || character == "\"" {
                quote = character
                word = word ?? ""
            } else if character == " " {
                if let finished = word { words.append(finished) }
                word = nil
            } else {
                word = (word ?? "") + String(character)
            }
        }
        try #require(quote == nil, "unclosed quote in \(line)")
        if let word { words.append(word) }
        return words
    }
}

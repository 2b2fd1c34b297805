import Foundation
import Testing

/// Completions, as bash runs them: the generated script is sourced and its completion function
/// called as bash calls it (command, current word, previous word) with the words typed so far.
@Suite("Shell completions")
struct CompletionTests {
    let directory: URL

    init() throws {
        directory = try FeedworkProcess.makeFolder("completion")
        let config = """
            feeds:
              - { name: fruit-uk, adapter: fruit, url: uk.json }
              - name: shop
                adapter: json
                url: products.json
                records: items
                entity: product
                key: id
                fields: { id: int }
            """
        try Data(config.utf8).write(to: directory.appendingPathComponent("other.yaml"))
    }

    /// What bash offers after `feedwork WORDS...` (the last word being completed).
    func complete(_ words: [String]) async throws -> (offered: [String], stderr: String) {
        let script = """
            bin="$1"; shift
            source <("$bin" --generate-completion-script bash)
            COMP_WORDS=("$bin" "$@")
            COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))
            COMP_LINE="${COMP_WORDS[*]}"
            COMP_POINT=${#COMP_LINE}
            _feedwork "$bin" "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
            printf '%s\\n' "${COMPREPLY[@]}"
            """
        let result = try await FeedworkProcess.run(words, in: directory, launcher: ["/bin/bash", "-c", script, "bash"])
        #expect(result.status == 0, "\(result.stderr)")
        return (result.stdout.split(separator: "\n").map(String.init), result.stderr)
    }

    @Test func anEntityArgumentOffersTheEntitiesOfTheConfigGivenWithC() async throws {
        await #expect(try complete(["export", "-c", "other.yaml", "pr"]).offered == ["product"])
    }

    @Test func feedOptionsOfferTheConfigsFeeds() async throws {
        await #expect(
            try complete(["run", "-c", "other.yaml", "--feed", ""]).offered.sorted() == ["fruit-uk", "shop"])
    }

    @Test func aConfigThatDoesNotLoadOffersNoNamesAndPrintsNothing() async throws {
        try Data("feeds: [".utf8).write(to: directory.appendingPathComponent("feeds.yaml"))
        let completion = try await complete(["run", "--feed", ""])
        #expect(completion.offered.filter { !$0.isEmpty }.isEmpty)
        #expect(completion.stderr.isEmpty)
    }
}

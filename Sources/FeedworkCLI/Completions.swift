import ArgumentParser
import FeedEngine

/// Shell completions beyond subcommand names: feed and entity names read from the config (the
/// one given with `-c` on the line being completed, else ./feeds.yaml), config files and paths.
/// A config that does not load completes no names rather than printing an error into the shell.
enum Completions {
    /// The feeds of the config, disabled ones included.
    static let feeds = CompletionKind.custom { words, _, _ in names(words) { $0.feeds.map(\.name) } }

    /// The entities the config's feeds write.
    static let entities = CompletionKind.custom { words, _, _ in
        names(words) { $0.declaredEntities.map(\.schema.name) }
    }

    /// YAML files.
    static let config = CompletionKind.file(extensions: ["yaml", "yml"])

    static func names(_ words: [String], _ pick: (FeedsConfig) -> [String]) -> [String] {
        let loader = ConfigLoader(registry: RegisteredAdapters.registry, unsetVariables: .placeholder)
        guard let config = try? loader.load(path: configPath(in: words) ?? "feeds.yaml") else { return [] }
        return pick(config)
    }

    /// The value of `-c`/`--config` among `words`, if given.
    static func configPath(in words: [String]) -> String? {
        for (index, word) in words.enumerated() {
            if word == "-c" || word == "--config", index + 1 < words.count { return words[index + 1] }
            if word.hasPrefix("--config=") { return String(word.dropFirst("--config=".count)) }
        }
        return nil
    }
}

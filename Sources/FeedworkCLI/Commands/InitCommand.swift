import ArgumentParser
import FeedEngine
import FeedKit
import Foundation
import JSONFeed

/// `feedwork init`: a first feeds.yaml, empty and commented, or with a json feed guessed from a
/// sample response.
struct InitCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Write a commented feeds.yaml, optionally with a json feed guessed from a sample response.",
        discussion: """
            With --from, the sample (a JSON file or an http(s) URL, fetched once) decides the \
            feed: the records are the largest list of objects, the key a field unique in every \
            record (id first), each field's type what its values hold (int, decimal, bool, ISO \
            8601 timestamps, lists), and a next-page link becomes next_url pagination. Each \
            guess is commented in the file; the config is validated before it is written.

            The file is written atomically and never replaced unless --force; --print writes \
            the feed to stdout instead, to paste into an existing feeds.yaml.

            Examples:
              feedwork init
              feedwork init --from sample.json
              feedwork init --from https://api.example.com/v1/items --name items
              feedwork init --from page1.json --url https://api.example.com/v1/items --print
            """)

    @Option(name: [.short, .long], help: "The config file to write.", completion: Completions.config)
    var config: String = "feeds.yaml"

    @Option(help: "A sample response: a JSON file or an http(s) URL.", completion: .file(extensions: ["json"]))
    var from: String?

    @Option(help: "The feed's URL (default: the sample's).")
    var url: String?

    @Option(help: "The feed's name (default: from the sample's name).")
    var name: String?

    @Option(help: "The entity (table) name (default: from the records' path).")
    var entity: String?

    @Flag(help: "Replace an existing config file.")
    var force = false

    @Flag(help: "Print the guessed feed on stdout instead of writing a file.")
    var print = false

    func run() async throws {
        let directory = URL(fileURLWithPath: config).deletingLastPathComponent().path
        var feedYAML: String?
        var summary = "no feeds yet"
        if let from {
            let draft = try await Self.draft(from: from)
            let feed = name ?? Self.feedName(from: from)
            let entity = entity ?? draft.entityName(fallback: feed)
            feedYAML = draft.yaml(
                feed: feed, url: url ?? Self.feedURL(from, configDirectory: directory), entity: entity)
            summary = "feed '\(feed)' (entity \(entity), \(draft.fieldCount) field(s), key \(draft.keyDescription))"
        }
        if print, let feedYAML {
            Console.print(feedYAML)
            return
        }
        let text = Self.template(feeds: feedYAML)
        // A guess that does not load is a bug here, not the user's: say so rather than write it.
        do {
            _ = try ConfigLoader(registry: RegisteredAdapters.registry).load(
                yaml: text, path: config, directory: directory)
        } catch let error as ConfigError {
            throw CommandFailure(
                status: 1,
                lines: ["error: the guessed config does not validate; nothing was written"]
                    + error.problems.map(\.description))
        }
        guard force || !FileManager.default.fileExists(atPath: config) else {
            throw CommandFailure.usage(
                "\(config) exists; use --force to replace it, or --print to print the feed and paste it in")
        }
        try AtomicFile.write(Data(text.utf8), to: config)
        Console.error("wrote \(config) with \(summary); next: feedwork validate, then feedwork run")
    }

    /// The sample fetched as a feed's first page is (the same fetcher, limits and errors; no
    /// cache), parsed and guessed from.
    static func draft(from source: String) async throws -> JSONFeedDraft {
        let request = FetchRequest(
            url: source, headers: [HTTPHeader("Accept", "application/json")], cacheable: false)
        let context = FetchContext(
            feed: "init", baseDirectory: URL(fileURLWithPath: FileManager.default.currentDirectoryPath),
            cache: InMemoryResponseCache())
        let sample: JSONValue
        do {
            sample = try await StandardFetcher().fetch(request, context: context).json(feed: "init")
        } catch {
            throw CommandFailure.failed("cannot read the sample: \(error)")
        }
        guard let draft = JSONFeedDraft(sample: sample) else {
            throw CommandFailure.failed("\(source) holds no list of objects to take records from")
        }
        return draft
    }

    /// A feed name from the sample's file or URL: `products-page-1.json` gives `products-page-1`.
    static func feedName(from source: String) -> String {
        let last =
            URL(string: source).flatMap { FetchRequest.isRemote(source) ? $0 : nil }
            .map {
                $0.lastPathComponent.isEmpty || $0.lastPathComponent == "/" ? ($0.host ?? "feed") : $0.lastPathComponent
            }
            ?? URL(fileURLWithPath: source).lastPathComponent
        let stem = last.hasSuffix(".json") ? String(last.dropLast(5)) : last
        let name = String(stem.map { $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) ? $0 : "-" })
        return name.isEmpty ? "feed" : String(name.prefix(64))
    }

    /// The sample as the feed's URL: a URL as is, a file relative to the config's folder.
    static func feedURL(_ source: String, configDirectory: String) -> String {
        guard !FetchRequest.isRemote(source) else { return source }
        let absolute = URL(fileURLWithPath: source).standardizedFileURL.path
        let folder = URL(fileURLWithPath: configDirectory).standardizedFileURL.path + "/"
        return absolute.hasPrefix(folder) ? String(absolute.dropFirst(folder.count)) : absolute
    }

    static func template(feeds: String?) -> String {
        """
        # Feedwork config: `feedwork validate` checks it, `feedwork run` runs every enabled feed.
        # Every key is described in Feedwork's docs/reference/feeds-yaml.md.
        store: feeds.sqlite            # the SQLite store, relative to this file
        defaults:                      # for every feed; a feed may override each
          timeout: 30s
          retries: 3
          concurrency: 4

        # Secrets come from the environment: token: "${MY_API_TOKEN}". They are never stored.
        """ + "\n" + (feeds.map { "feeds:\n" + $0 } ?? Self.emptyFeeds) + "\n"
    }

    /// The `feeds:` list without feeds (YAML's null, which the loader reads as none), then a
    /// commented feed that validates once its lines are uncommented.
    static let emptyFeeds = """
        feeds:
        # Add feeds here (uncomment the lines below to start from this one), for example a JSON
        # API described with YAML alone:
        #   - name: my-api
        #     adapter: json
        #     url: https://api.example.com/v1/items
        #     records: $.data.items
        #     entity: item
        #     key: id
        #     fields: { id: int, name: string, price: decimal, updated_at: timestamp }
        #     max_age: 10m           # reuse a cached response younger than this
        # `feedwork init --from SAMPLE.json` guesses such a feed from a sample response, and
        # `feedwork adapters` lists the built-in adapters and their options.
        """
}

import ArgumentParser
import FeedEngine
import FeedPricing
import FeedServer
import Foundation

/// `feedwork serve`: web pages and a JSON API over the store, read-only.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve web pages and a JSON API over the store, read-only.",
        discussion: """
            Pages: the feeds (/), a feed's runs and rejects (/feeds/NAME), every entity (/entities) \
            as a table or as cards, a record (/entities/E/records/FEED/KEY) and a basket priced \
            like `feedwork price` (/basket). Every page's data is JSON under /api, described by \
            /api/openapi.json. The store is opened read-only; a run may write meanwhile.

            It listens on 127.0.0.1:8080 unless --host or --port say otherwise. An address other \
            than loopback needs a token: set FEEDWORK_SERVE_TOKEN (or the variable --token-env \
            names) to a secret of 16 characters or more, and every request must carry it \
            (Authorization: Bearer TOKEN, or ?token=TOKEN once in a browser, which then keeps it \
            in a cookie). With the variable set, a loopback server asks for it too.

            Examples:
              feedwork serve
              feedwork serve --store feeds.sqlite --port 9000
              FEEDWORK_SERVE_TOKEN=$(openssl rand -hex 16) feedwork serve --host 0.0.0.0
            """)

    @OptionGroup var options: ConfigOptions

    @Option(help: "The store: an SQLite file, or a postgres:// URL (default: the store of the config).")
    var store: String?

    @Option(help: "The PostgreSQL schema of --store.")
    var schema: String = "feedwork"

    @Option(help: "The address to listen on.")
    var host: String = "127.0.0.1"

    @Option(help: "The port to listen on (0: any free port, printed).")
    var port: Int = 8080

    @Option(help: "The environment variable holding the token.")
    var tokenEnv: String = ServeSettings.tokenVariable

    func run() async throws {
        guard (0...65535).contains(port) else { throw CommandFailure.usage("--port \(port): expected 0 to 65535") }
        let config = store == nil ? try options.load(unsetVariables: .placeholder) : nil
        let browser: StoreBrowser
        if let store {
            browser = try StoreBrowser(location: StoreLocation(store, schema: schema))
        } else if let config {
            browser = try StoreBrowser(config: config)
        } else {
            throw CommandFailure.usage("give --store or a config")
        }
        let token = ProcessInfo.processInfo.environment[tokenEnv].flatMap { $0.isEmpty ? nil : $0 }
        let settings = ServeSettings(
            address: ListenAddress(host: host, port: port), token: token, browser: browser,
            pricing: BasketPricing(config: config),
            configuredFeeds: config?.feeds.map { ($0.name, $0.adapterName) } ?? [],
            schedules: Dictionary(
                config?.feeds.compactMap { feed in feed.schedule.map { (feed.name, $0) } } ?? [],
                uniquingKeysWith: { first, _ in first }))
        if let problem = settings.problem { throw CommandFailure.usage(problem) }
        let host = self.host
        let app = ServeApplication(settings: settings).application { port in
            Console.error("serving \(browser.storeDescription) on http://\(ListenAddress(host: host, port: port))/")
        }
        try await app.runService()
    }
}

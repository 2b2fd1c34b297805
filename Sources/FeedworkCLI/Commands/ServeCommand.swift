import ArgumentParser
import FeedEngine
import FeedMCP
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

            The SQL page (/sql) and /api/sql run one read-only SELECT or WITH statement, with \
            :name parameters, for at most --sql-time-limit seconds and --sql-row-limit rows; the \
            response cache, state and outbox tables are hidden. Beyond loopback they are off \
            unless --allow-sql is given.

            POST /mcp is feedwork mcp's server over HTTP (MCP's streamable HTTP, JSON answers), \
            behind the token; beyond loopback it is off unless --mcp is given (docs/mcp.md).

            Examples:
              feedwork serve
              feedwork serve --store feeds.sqlite --port 9000
              FEEDWORK_SERVE_TOKEN=$(openssl rand -hex 16) feedwork serve --host 0.0.0.0
              FEEDWORK_SERVE_TOKEN=$(openssl rand -hex 16) feedwork serve --host 0.0.0.0 --allow-sql --sql-time-limit 2
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

    @Flag(
        name: .customLong("allow-sql"),
        help: "Open the SQL page and /api/sql on an address beyond loopback too (loopback always has them).")
    var allowSQL = false

    @Flag(
        name: .customLong("mcp"),
        help: "Answer MCP at /mcp on an address beyond loopback too (loopback always does, given a config).")
    var mcp = false

    @Option(help: "How long one SQL statement may run, in seconds (default 5).")
    var sqlTimeLimit: Double = 5

    @Option(help: "The most rows one SQL statement returns (default 1000).")
    var sqlRowLimit: Int = SQLAccess.defaultRowLimit

    func run() async throws {
        guard (0...65535).contains(port) else { throw CommandFailure.usage("--port \(port): expected 0 to 65535") }
        guard sqlTimeLimit.isFinite, sqlTimeLimit >= 0.001, sqlTimeLimit <= 3600 else {
            throw CommandFailure.usage("--sql-time-limit \(sqlTimeLimit): expected seconds from 0.001 to 3600")
        }
        guard (1...1_000_000).contains(sqlRowLimit) else {
            throw CommandFailure.usage("--sql-row-limit \(sqlRowLimit): expected 1 to 1000000 rows")
        }
        let address = ListenAddress(host: host, port: port)
        let token = getenv(tokenEnv).map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 }
        // Checked before the server listens, which it does while the config loads and the store opens.
        if let problem = ServeSettings.problem(address: address, token: token) { throw CommandFailure.usage(problem) }
        let sql = SQLAccess(
            allowedWhenExposed: allowSQL, timeLimit: .milliseconds(Int64((sqlTimeLimit * 1000).rounded())),
            rowLimit: sqlRowLimit)
        let (options, store, schema, mcpWhenExposed) = (self.options, self.store, self.schema, mcp)
        try await ServeApplication.run(at: address) {
            let config = store == nil ? try options.loadToRead() : nil
            let browser: StoreBrowser
            if let store {
                browser = try StoreBrowser(location: StoreLocation(store, schema: schema))
            } else if let config {
                browser = try StoreBrowser(config: config)
            } else {
                throw CommandFailure.usage("give --store or a config")
            }
            var settings = ServeSettings(
                address: address, token: token, browser: browser, pricing: BasketPricing(config: config),
                configuredFeeds: config?.feeds.map { ($0.name, $0.adapterName) } ?? [],
                schedules: Dictionary(
                    config?.feeds.compactMap { feed in feed.schedule.map { (feed.name, $0) } } ?? [],
                    uniquingKeysWith: { first, _ in first }))
            settings.sql = sql
            settings.mcp = config.map {
                MCPServer(
                    config: $0, registry: RegisteredAdapters.registry, version: FeedworkCommand.configuration.version)
            }
            settings.mcpWhenExposed = mcpWhenExposed
            return settings
        } ready: { settings, port in
            Console.error(
                "serving \(settings.browser.storeDescription) on http://\(ListenAddress(host: address.host, port: port))/"
            )
        }
    }
}

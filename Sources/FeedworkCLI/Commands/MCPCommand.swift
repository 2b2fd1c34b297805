import ArgumentParser
import FeedEngine
import FeedMCP

/// `feedwork mcp`: a Model Context Protocol server over the store, on standard input and output.
struct MCPCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mcp",
        abstract: "Serve the store to an assistant over the Model Context Protocol (stdio), read-only.",
        discussion: """
            An editor or assistant starts it and speaks JSON-RPC on its standard input and output, \
            one message per line; logs go to standard error. Tools: list_feeds, list_entities, \
            describe_entity, query_sql (one read-only statement under the row and time limits of \
            serve's /api/sql), search, get_record, feed_runs, feed_rejects and validate_config; \
            the resource feedwork://schema is the store's schema as JSON. Nothing is written; the \
            config's secrets appear in no answer. See docs/mcp.md.

            Examples:
              feedwork mcp
              feedwork mcp --config /path/to/feeds.yaml
            """)

    @OptionGroup var options: ConfigOptions

    func run() async throws {
        // Read-only, as `feedwork list`: an unset ${VAR} is a secret it does not need.
        let config = try options.loadToRead()
        let server = MCPServer(
            config: config, registry: RegisteredAdapters.registry, version: FeedworkCommand.configuration.version)
        await MCPStdio.serve(server)
    }
}

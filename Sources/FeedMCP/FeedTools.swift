import FeedEngine
import FeedKit

/// What `feedwork mcp`'s tools read: the config given on the command line and its store, read
/// only (the SQLite file opened read-only, the PostgreSQL schema through the reading path).
///
/// Every answer is text: JSON written by the code serve's API uses, with every secret of the
/// config (`${VAR}` values and the credentials written in feeds' options) replaced by `***`,
/// and cut at ``maximumAnswerBytes`` with a note.
struct FeedTools: Sendable {
    /// The longest answer text; a longer one is cut and says so.
    static let maximumAnswerBytes = 512 * 1024

    let config: FeedsConfig
    let registry: AdapterRegistry
    /// Hides the config's secrets in every answer.
    let redactor: Redactor
    private let store: StoreAccess

    init(config: FeedsConfig, registry: AdapterRegistry) {
        self.config = config
        self.registry = registry
        redactor = Redactor(secrets: config.redactor.secrets + config.feeds.flatMap(\.adapter.secrets))
        store = StoreAccess(config: config)
    }

    /// The answer of the tool `name` with `arguments`: its text, and whether the tool failed.
    ///
    /// - Throws: ``JSONRPC/Failure`` for an unknown tool or arguments that do not fit it.
    func call(_ name: String, arguments: JSONObject) async throws(JSONRPC.Failure) -> (text: String, isError: Bool) {
        guard let tool = Self.catalog.first(where: { $0.name == name }) else {
            throw JSONRPC.Failure(
                .invalidParams,
                "no tool '\(name)'; the tools: " + Self.catalog.map(\.name).joined(separator: ", "))
        }
        let arguments = try ToolArguments(tool: tool, values: arguments)
        do {
            return (answer(try await run(tool.name, arguments)), false)
        } catch let failure as JSONRPC.Failure {
            throw failure
        } catch let failure as ToolFailure {
            return (answer(failure.message), true)
        } catch {
            return (answer(String(describing: error)), true)
        }
    }

    /// `text` with the secrets hidden, cut at ``maximumAnswerBytes``.
    func answer(_ text: String) -> String {
        let text = redactor.redact(text)
        guard text.utf8.count > Self.maximumAnswerBytes else { return text }
        let cut = String(decoding: text.utf8.prefix(Self.maximumAnswerBytes), as: UTF8.self)
        return cut
            + "\n[truncated: the answer was \(text.utf8.count) bytes, more than \(Self.maximumAnswerBytes);"
            + " ask for fewer rows]"
    }

    private func run(_ name: String, _ arguments: ToolArguments) async throws -> String {
        switch name {
        case "list_feeds": return try await listFeeds()
        case "list_entities": return try await listEntities()
        case "describe_entity": return try await describeEntity(try arguments.required("entity"))
        case "query_sql":
            return try await querySQL(try arguments.required("sql"), parameters: try arguments.strings("parameters"))
        case "search":
            return try await search(
                entity: try arguments.required("entity"), words: try arguments.required("query"),
                feed: try arguments.string("feed"),
                limit: try arguments.integer("limit", in: 1...Self.maximumRows, default: 20))
        case "get_record":
            return try await record(
                entity: try arguments.required("entity"), feed: try arguments.required("feed"),
                key: try arguments.required("key"))
        case "feed_runs":
            return try await runs(
                feed: try arguments.required("feed"),
                limit: try arguments.integer("limit", in: 1...Self.maximumRows, default: 20))
        case "feed_rejects":
            return try await rejects(
                feed: try arguments.required("feed"),
                limit: try arguments.integer("limit", in: 1...Self.maximumRows, default: 50))
        case "validate_config": return await validate(try arguments.required("yaml"))
        default: throw JSONRPC.Failure(.invalidParams, "no tool '\(name)'")
        }
    }

    /// The store's browser, opened on first use (a store made after the server started is found).
    func browser() async throws -> StoreBrowser { try await store.browser() }
}

/// The store's browser, opened once it exists and kept for the next calls.
private actor StoreAccess {
    let config: FeedsConfig
    private var opened: StoreBrowser?

    init(config: FeedsConfig) { self.config = config }

    func browser() throws -> StoreBrowser {
        if let opened { return opened }
        let browser = try StoreBrowser(config: config)
        opened = browser
        return browser
    }
}

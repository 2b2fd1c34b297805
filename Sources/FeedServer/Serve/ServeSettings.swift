import FeedEngine
import FeedMCP
import FeedPricing

/// How `feedwork serve` runs: where it listens, the token it asks for, and what it serves.
public struct ServeSettings: Sendable {
    /// The environment variable the token is read from.
    public static let tokenVariable = "FEEDWORK_SERVE_TOKEN"

    public var address: ListenAddress
    /// The token every request must carry; required when ``address`` is not loopback.
    public var token: String?
    public var browser: StoreBrowser
    public var pricing: BasketPricing?
    /// The feeds of the config served with, if any: the overview lists those that never ran too.
    public var configuredFeeds: [(feed: String, adapter: String)]
    /// The schedules of the config's feeds, by feed: the charts show how late each run started.
    public var schedules: [String: FeedSchedule]
    /// Whether people may run read-only SQL, and its limits.
    public var sql = SQLAccess()
    /// `feedwork mcp`'s server at `/mcp`, `nil` when the server has no config to give it.
    public var mcp: MCPServer?
    /// Whether `/mcp` answers when the server listens beyond loopback (`--mcp`); on loopback it
    /// always does.
    public var mcpWhenExposed = false

    public init(
        address: ListenAddress, token: String?, browser: StoreBrowser, pricing: BasketPricing?,
        configuredFeeds: [(feed: String, adapter: String)] = [], schedules: [String: FeedSchedule] = [:]
    ) {
        self.address = address
        self.token = token
        self.browser = browser
        self.pricing = pricing
        self.configuredFeeds = configuredFeeds
        self.schedules = schedules
    }

    /// The overview: every feed that ran on the store, and those of the config that never ran.
    func overview() async throws -> [FeedOverview] { try await browser.overview(configured: configuredFeeds) }

    /// Why these settings cannot serve, or `nil`: an address other than loopback needs a token.
    public var problem: String? { Self.problem(address: address, token: token) }

    /// Why a server on `address` with `token` cannot serve, or `nil`: checked before it listens.
    public static func problem(address: ListenAddress, token: String?) -> String? {
        if !address.isLoopback, (token ?? "").isEmpty {
            return "--host \(address.host) is reachable from other machines: set \(Self.tokenVariable) (or the"
                + " variable --token-env names) to a secret token, which every request must then carry"
        }
        if let token, token.count < 16 { return "the token must have at least 16 characters" }
        return nil
    }
}

import FeedKit
import FeedStore
import Foundation

/// A loaded and validated feeds.yaml.
///
/// ```yaml
/// store: feeds.sqlite            # relative to this file, or postgres://user@host:5432/db
/// schema: feedwork               # PostgreSQL only: the schema of Feedwork's tables
/// defaults: { timeout: 30s, retries: 3, concurrency: 4 }
/// feeds:
///   - name: bbc-fruit
///     adapter: fruit
///     url: Adapters/Fruit/Fixtures/data.json
/// ```
///
/// Load one with ``ConfigLoader``.
public struct FeedsConfig: Sendable {
    /// The config file's path as given.
    public var file: String
    /// The folder relative paths are read from.
    public var directory: String
    /// Where the config's store is: `store:` (a file's path, made absolute, or a server's URL)
    /// and `schema:`.
    public var storeLocation: StoreLocation
    /// Feeds running at once in `feedwork run` and `feedwork worker`.
    public var concurrency: Int
    /// How long a worker's claim on a due feed lasts unless renewed (`defaults: { lease: 60s }`):
    /// a worker renews it while the pass runs, and when a worker dies, another takes the feed
    /// over once it runs out.
    public var lease: FeedDuration = .seconds(60)
    public var feeds: [FeedConfig]
    /// The feeds left out of ``feeds`` because they name an adapter this program does not
    /// register (``ConfigLoader/UnknownAdapters/skipFeed``).
    public var unknownAdapters: [UnknownAdapterUse] = []
    /// Hides every value that came from `${VAR}`.
    public var redactor: Redactor

    /// The feed named `name`.
    public func feed(named name: String) -> FeedConfig? { feeds.first { $0.name == name } }

    /// What `store:` names: the absolute path of the store's file, or the server's URL
    /// (``StoreLocation/store``).
    public var storePath: String { storeLocation.store }

    /// The store as messages name it: the file, or the server (without its password) and
    /// schema.
    public var storeDescription: String { storeLocation.description }
}

/// One feed of feeds.yaml, with its adapter made from its options.
public struct FeedConfig: Sendable {
    public var name: String
    /// The value of `adapter:`.
    public var adapterName: String
    public var enabled: Bool
    /// Where the feed starts in the config file.
    public var location: SourceLocation
    public var policy: FetchPolicy
    /// The feed's recorded fixtures (`fixtures:`), an absolute path, if any.
    public var fixtures: String?
    /// The largest share of a pass's records that may be rejected (`max_reject_ratio`, 0 to 1):
    /// a pass above it fails and commits nothing. See ``RejectLimit``.
    public var maxRejectRatio: Double
    /// When `feedwork worker` runs the feed; `nil` leaves it to `feedwork run`.
    public var schedule: FeedSchedule?
    public var adapter: any FeedAdapter
    /// Whether the feed's entry names an `http://` or `https://` URL: a hint that its passes
    /// fetch over the network (``RemoteURLHint``; an adapter's built-in URL is not seen).
    public var namesRemoteURL = false
    /// What a pass may change in the store's tables of the feed's entities (`schema:`).
    public var schemaContract: SchemaContract = .evolve
    /// The feeds whose pass must end before this one's starts, when both run in one
    /// `feedwork run` or worker: those `depends_on:` names, and those writing the entities the
    /// adapter reads as parents (``FeedAdapter/parentEntities``). See ``FeedDependencies``.
    public var dependsOn: [String] = []
    /// What `dependsOn` is made of, as written, with where: resolved once every feed is read.
    var declaredDependencies: [FeedDependencies.Declared] = []
    /// The largest share of a `replace` entity's rows a pass may delete (`max_delete_ratio`,
    /// 0 to 1): a pass above it fails and commits nothing. See ``DeleteLimit``.
    public var maxDeleteRatio = DeleteLimit.defaultRatio
    /// Whether a `replace` pass may leave an entity of the feed without a row (`allow_empty`).
    public var allowsEmpty = false
}

/// The `defaults:` block, also accepted per feed for the request settings.
struct RequestSettings: Decodable, Sendable {
    var timeout: FeedDuration?
    var connectTimeout: FeedDuration?
    var retries: Int?
    var backoff: FeedDuration?
    var retryAfterCap: FeedDuration?
    var maxResponseSize: ByteSize?
    var maxMediaSize: ByteSize?
    var mirrorMedia: Bool?
    var maxRedirects: Int?
    var followRedirects: RedirectPolicy?

    enum CodingKeys: String, CodingKey {
        case timeout, retries, backoff
        case connectTimeout = "connect_timeout"
        case retryAfterCap = "retry_after_cap"
        case maxResponseSize = "max_response_size"
        case maxMediaSize = "max_media_size"
        case mirrorMedia = "mirror_media"
        case maxRedirects = "max_redirects"
        case followRedirects = "follow_redirects"
    }

    func applied(to policy: FetchPolicy) -> FetchPolicy {
        var policy = policy
        if let timeout { policy.timeout = timeout }
        if let connectTimeout { policy.connectTimeout = connectTimeout }
        if let retries { policy.retries = retries }
        if let backoff { policy.backoff = backoff }
        if let retryAfterCap { policy.retryAfterCap = retryAfterCap }
        if let maxResponseSize { policy.maxResponseBytes = maxResponseSize.bytes }
        if let maxMediaSize { policy.maxMediaBytes = maxMediaSize.bytes }
        if let mirrorMedia { policy.mirrorsMedia = mirrorMedia }
        if let maxRedirects { policy.maxRedirects = maxRedirects }
        if let followRedirects { policy.followRedirects = followRedirects }
        return policy
    }
}

struct DefaultsBlock: Decodable, Sendable {
    var request: RequestSettings
    var schedule: ScheduleSettings
    var concurrency: Int?
    var maxRejectRatio: Double?
    var lease: FeedDuration?
    var maxDeleteRatio: Double?
    /// Named request budgets that feeds share with `budget: NAME`.
    var budgets: OrderedMapping<BudgetSpec>?
    /// The schema contract of every feed (`schema:`), key by key under a feed's own.
    var schema: SchemaContractSpec?

    enum CodingKeys: String, CodingKey {
        case concurrency, lease, budgets, schema
        case maxRejectRatio = "max_reject_ratio"
        case maxDeleteRatio = "max_delete_ratio"
    }

    init(from decoder: any Decoder) throws {
        request = try RequestSettings(from: decoder)
        schedule = try ScheduleSettings(from: decoder)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        concurrency = try container.decodeIfPresent(Int.self, forKey: .concurrency)
        maxRejectRatio = try container.decodeIfPresent(Double.self, forKey: .maxRejectRatio)
        lease = try container.decodeIfPresent(FeedDuration.self, forKey: .lease)
        budgets = try container.decodeIfPresent(OrderedMapping<BudgetSpec>.self, forKey: .budgets)
        schema = try container.decodeIfPresent(SchemaContractSpec.self, forKey: .schema)
        maxDeleteRatio = try container.decodeIfPresent(Double.self, forKey: .maxDeleteRatio)
    }
}

/// `{ requests: 10, per: 1s, burst: 20 }`: a request budget as written, in `budgets:` or a
/// feed's `rate_limit:`.
struct BudgetSpec: Decodable, Sendable, Hashable {
    var requests: Int
    var per: FeedDuration
    var burst: Int?

    enum CodingKeys: String, CodingKey { case requests, per, burst }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        requests = try container.decode(Int.self, forKey: .requests)
        guard (1...1_000_000).contains(requests) else {
            throw DecodingError.dataCorruptedError(
                forKey: .requests, in: container,
                debugDescription: "requests must be between 1 and 1000000, not \(requests)")
        }
        per = try container.decode(FeedDuration.self, forKey: .per)
        guard per.milliseconds >= 1, per <= .days(1) else {
            throw DecodingError.dataCorruptedError(
                forKey: .per, in: container, debugDescription: "per must be between 1ms and 1d, not \(per)")
        }
        burst = try container.decodeIfPresent(Int.self, forKey: .burst)
        if let burst, !(1...1_000_000).contains(burst) {
            throw DecodingError.dataCorruptedError(
                forKey: .burst, in: container, debugDescription: "burst must be between 1 and 1000000, not \(burst)")
        }
    }

    /// The budget named `name`.
    func budget(named name: String) -> RequestBudget {
        RequestBudget(name: name, requests: requests, per: per, burst: burst)
    }
}

/// The keys every feed has, whatever its adapter.
struct CommonFeedKeys: Decodable, Sendable {
    var name: String
    var adapter: String
    var enabled: Bool?
    var fixtures: String?
    var maxRejectRatio: Double?
    var request: RequestSettings
    var schedule: ScheduleSettings
    /// The name of a budget of `defaults: { budgets: ... }` the feed's requests count against.
    var budget: String?
    /// The feed's own budget.
    var rateLimit: BudgetSpec?
    /// The feed's schema contract (`schema:`), over that of `defaults:`.
    var schema: SchemaContractSpec?
    /// Feeds whose pass must end before this one's (`depends_on: orders` or a list).
    var dependsOn: [String]?
    var maxDeleteRatio: Double?
    var allowEmpty: Bool?

    static let names: Set<String> = Set([
        "name", "adapter", "enabled", "fixtures", "max_reject_ratio", "timeout", "connect_timeout", "retries",
        "backoff", "retry_after_cap", "max_response_size", "max_media_size", "mirror_media", "max_redirects",
        "follow_redirects", "budget", "rate_limit", "schema", "depends_on", "max_delete_ratio", "allow_empty",
    ]).union(ScheduleSettings.keys)

    enum CodingKeys: String, CodingKey {
        case name, adapter, enabled, fixtures, budget, schema
        case maxRejectRatio = "max_reject_ratio"
        case rateLimit = "rate_limit"
        case dependsOn = "depends_on"
        case maxDeleteRatio = "max_delete_ratio"
        case allowEmpty = "allow_empty"
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        adapter = try container.decode(String.self, forKey: .adapter)
        enabled = try container.decodeIfPresent(Bool.self, forKey: .enabled)
        fixtures = try container.decodeIfPresent(String.self, forKey: .fixtures)
        maxRejectRatio = try container.decodeIfPresent(Double.self, forKey: .maxRejectRatio)
        budget = try container.decodeIfPresent(String.self, forKey: .budget)
        rateLimit = try container.decodeIfPresent(BudgetSpec.self, forKey: .rateLimit)
        schema = try container.decodeIfPresent(SchemaContractSpec.self, forKey: .schema)
        if let single = try? container.decodeIfPresent(String.self, forKey: .dependsOn) {
            dependsOn = [single]
        } else {
            dependsOn = try container.decodeIfPresent([String].self, forKey: .dependsOn)
        }
        request = try RequestSettings(from: decoder)
        schedule = try ScheduleSettings(from: decoder)
        maxDeleteRatio = try container.decodeIfPresent(Double.self, forKey: .maxDeleteRatio)
        allowEmpty = try container.decodeIfPresent(Bool.self, forKey: .allowEmpty)
    }
}

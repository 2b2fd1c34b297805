/// The plugin contract: an adapter turns one kind of API into normalized entities.
///
/// An adapter works in three steps, kept apart so each can be tested alone:
///
/// 1. **fetch**: it describes requests (``FetchRequest``) and asks the ``FeedPass`` to perform
///    them; the engine owns all I/O, retries, caching and limits.
/// 2. **parse**: the bytes of a response become a ``JSONValue`` (``FeedPass/parseJSON(_:)``).
///    Malformed input is a ``PayloadError`` naming the feed, the URL and the JSON path, never a
///    crash.
/// 3. **map**: the payload becomes a ``RecordBatch`` of ``EntityRecord``s, and of ``Reject``s
///    (reason, JSON path, raw JSON) for items that fail validation, written with
///    ``FeedPass/write(_:)``.
///
/// Everything an adapter writes during one pass commits in one transaction, or not at all.
///
/// Each feed in feeds.yaml names its adapter with `adapter:`; its other keys are decoded into
/// ``Options`` strictly (unknown keys are errors). docs/adapters/writing-an-adapter.md shows a
/// complete adapter; `Adapters/Fruit` is the smallest built-in one.
public protocol FeedAdapter: Sendable {
    /// The adapter's YAML options (the feed's keys other than `name`, `adapter`, `enabled`, ...).
    associatedtype Options: Decodable & Sendable

    /// Name, summary, documented options and fixed entities, for the registry and `feedwork adapters`.
    static var description: AdapterDescription { get }

    /// Makes the adapter for one feed.
    ///
    /// - Throws: ``OptionError`` for option combinations that decoding alone cannot catch.
    init(options: Options, feed: FeedSetup) throws

    /// The entities this feed writes, with the write mode of each. Defaults to the description's
    /// entities in `merge` mode.
    var entities: [EntityBinding] { get }

    /// Entities the feed declares during its pass (``FeedPass/declare(_:)``), once its records
    /// tell their columns, as far as they are known before it: `feedwork schema` shows them
    /// (with the store's columns, when it has them). Defaults to none.
    var entitiesDeclaredDuringPass: [EntityBinding] { get }

    /// Values that must never appear in messages, reports, `_runs` or cached URLs, beyond those
    /// that came from `${VAR}` (which are always redacted): credentials written literally in the
    /// options, and values derived from secrets (an encoded `Authorization` header). Defaults to none.
    var secrets: [String] { get }

    /// The entities whose stored rows a pass reads as its input (the parents of `for_each:`):
    /// the feeds that write them run first in one `feedwork run` or worker. Defaults to none.
    var parentEntities: [ParentEntity] { get }

    /// Performs one pass: fetch, parse, map, write.
    ///
    /// Throwing fails the feed: nothing it wrote in this pass is kept.
    func run(_ pass: FeedPass) async throws

    /// Outbox URLs to record when a pass fails (in their own transaction, since the pass's own
    /// transaction is rolled back). Defaults to none.
    func outboxAfterFailure(_ error: any Error, elapsedMilliseconds: Int) -> [String]

    /// What authenticates the request for a mirrored image at `url` (a value of a
    /// ``Column/media`` column): the feed's own credentials (headers, query keys, OAuth2), and
    /// only when `url` is on the feed's own origin (scheme, host and port), so that no image
    /// host sees them. Defaults to none.
    func mediaCredentials(for url: String) -> MediaCredentials
}

extension FeedAdapter {
    public var entities: [EntityBinding] { Self.description.entities.map { EntityBinding($0) } }

    public var entitiesDeclaredDuringPass: [EntityBinding] { [] }

    public func outboxAfterFailure(_ error: any Error, elapsedMilliseconds: Int) -> [String] { [] }

    public var secrets: [String] { [] }

    public var parentEntities: [ParentEntity] { [] }

    public func mediaCredentials(for url: String) -> MediaCredentials { .none }
}

/// An entity whose stored rows a feed's pass reads (``FeedAdapter/parentEntities``), and the
/// option naming it, for messages that point at it (`["for_each", "entity"]`).
public struct ParentEntity: Sendable, Hashable {
    /// The name of the entity whose stored rows the pass reads.
    public var entity: String
    /// The path of the option that names the entity, for messages at its line and column.
    public var option: [String]

    /// A parent `entity`, named by the option at `option` (such as `["for_each", "entity"]`).
    public init(_ entity: String, option: [String]) {
        self.entity = entity
        self.option = option
    }
}

/// An entity a feed writes, and how.
public struct EntityBinding: Sendable, Hashable {
    /// The entity's columns, key and relations, as the store creates its table.
    public var schema: EntitySchema
    /// Whether a pass merges, replaces or appends the feed's rows of the entity.
    public var mode: WriteMode
    /// What the pass may change in the entity's stored table; the engine sets the feed's
    /// `schema:` here, whatever the adapter gives.
    public var contract: SchemaContract

    /// A binding of `schema` in `mode` (`merge` by default); the engine sets ``contract`` from the feed's `schema:`.
    public init(_ schema: EntitySchema, mode: WriteMode = .merge, contract: SchemaContract = .evolve) {
        self.schema = schema
        self.mode = mode
        self.contract = contract
    }
}

/// What an adapter knows about its feed when it is made.
public struct FeedSetup: Sendable {
    /// The feed's `name`.
    public var name: String
    /// The folder of the config file; relative paths are read from here.
    public var configDirectory: String
    /// The feed's `schema:` contract (``SchemaContract``): an adapter that finds columns in the
    /// data leaves them out when it says `new_columns: discard`. The engine enforces the rest.
    public var schemaContract: SchemaContract

    /// The setup of the feed `name`, whose config file is in `configDirectory`.
    public init(name: String, configDirectory: String, schemaContract: SchemaContract = .evolve) {
        self.name = name
        self.configDirectory = configDirectory
        self.schemaContract = schemaContract
    }
}

/// An invalid combination of options, found after decoding. `path` names the option
/// (`["fields", "price"]`) so the message can point at its line and column.
public struct OptionError: Error, Sendable, CustomStringConvertible {
    /// The keys leading to the option at fault, such as `["fields", "price"]`; empty for the feed as a whole.
    public var path: [String]
    /// What is wrong, in words for the person who wrote the option.
    public var message: String

    /// An error saying `message` about the option at `path` (the feed itself when empty).
    public init(_ message: String, at path: [String] = []) {
        self.message = message
        self.path = path
    }

    /// The message alone: `feedwork validate` puts the file, line and column of ``path`` before it.
    public var description: String { message }
}

/// What `feedwork adapters` prints about an adapter.
public struct AdapterDescription: Sendable {
    /// The value of `adapter:` in feeds.yaml.
    public var name: String
    /// A line for `feedwork adapters`, saying what kind of API the adapter reads.
    public var summary: String
    /// The options a feed of this adapter takes, in the order `feedwork adapters` lists them.
    public var options: [OptionHelp]
    /// The entities the adapter always writes; empty for adapters whose entities come from YAML.
    public var entities: [EntitySchema]

    /// An adapter's entry in the registry; `entities` may be empty when a feed's YAML declares them.
    public init(name: String, summary: String, options: [OptionHelp], entities: [EntitySchema]) {
        self.name = name
        self.summary = summary
        self.options = options
        self.entities = entities
    }
}

/// One documented option of an adapter.
public struct OptionHelp: Sendable, Hashable {
    /// The option's key in the feed's YAML, as written there (`stats_url`, not `statsURL`).
    public var name: String
    /// The YAML type, e.g. `string`, `duration`, `mapping`.
    public var type: String
    /// What the option does, in a few words for `feedwork adapters`.
    public var summary: String
    /// The default, or `nil` when the option is required.
    public var defaultValue: String?

    /// The help of one option: its key, YAML type and summary, and its default (`nil`: required).
    public init(_ name: String, _ type: String, _ summary: String, default defaultValue: String? = nil) {
        self.name = name
        self.type = type
        self.summary = summary
        self.defaultValue = defaultValue
    }
}

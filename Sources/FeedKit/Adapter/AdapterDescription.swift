/// What `feedwork adapters` prints about an adapter.
public struct AdapterDescription: Sendable {
    /// The value of `adapter:` in feeds.yaml.
    public var name: String
    public var summary: String
    public var options: [OptionHelp]
    /// The entities the adapter always writes; empty for adapters whose entities come from YAML.
    public var entities: [EntitySchema]

    public init(name: String, summary: String, options: [OptionHelp], entities: [EntitySchema]) {
        self.name = name
        self.summary = summary
        self.options = options
        self.entities = entities
    }
}

/// One documented option of an adapter.
public struct OptionHelp: Sendable, Hashable {
    public var name: String
    /// The YAML type, e.g. `string`, `duration`, `mapping`.
    public var type: String
    public var summary: String
    /// The default, or `nil` when the option is required.
    public var defaultValue: String?

    public init(_ name: String, _ type: String, _ summary: String, default defaultValue: String? = nil) {
        self.name = name
        self.type = type
        self.summary = summary
        self.defaultValue = defaultValue
    }
}

/// Entries of a YAML mapping in document order, for options whose order matters (columns).
public struct OrderedMapping<Value: Decodable & Sendable>: Decodable, Sendable {
    /// The mapping's keys and values, in the order the YAML has them.
    public var entries: [(key: String, value: Value)]

    /// A mapping of `entries`, in that order.
    public init(entries: [(key: String, value: Value)]) { self.entries = entries }

    /// Reads a mapping, keeping its keys' order.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: AnyCodingKey.self)
        entries = try container.allKeys.map { ($0.stringValue, try container.decode(Value.self, forKey: $0)) }
    }
}

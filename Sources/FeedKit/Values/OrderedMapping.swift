/// Entries of a YAML mapping in document order, for options whose order matters (columns).
public struct OrderedMapping<Value: Decodable & Sendable>: Decodable, Sendable {
    public var entries: [(key: String, value: Value)]

    public init(entries: [(key: String, value: Value)]) { self.entries = entries }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: AnyCodingKey.self)
        entries = try container.allKeys.map { ($0.stringValue, try container.decode(Value.self, forKey: $0)) }
    }
}

import FeedKit

/// The tap's configuration written in YAML under `config:`, as the JSON the tap reads.
///
/// Its values are interpolated like every value of feeds.yaml (`${VAR}`), so secrets need not
/// be written in a file. Plain scalars are typed by how they read: `true` and `false` become
/// booleans, `12` and `1.5` numbers (as JSON writes them: `007` is a string), `null` (or nothing) null, anything else a string.
public struct SingerConfig: Decodable, Sendable {
    /// The configuration as a JSON value.
    public var json: JSONValue

    public init(json: JSONValue) { self.json = json }

    public init(from decoder: any Decoder) throws {
        json = try Self.value(from: decoder)
    }

    private static func value(from decoder: any Decoder) throws -> JSONValue {
        let single = try decoder.singleValueContainer()
        if single.decodeNil() { return .null }
        if let mapping = try? decoder.container(keyedBy: AnyCodingKey.self) {
            return .object(
                JSONObject(
                    try mapping.allKeys.map { key in
                        (key.stringValue, try mapping.decode(SingerConfig.self, forKey: key).json)
                    }))
        }
        if var list = try? decoder.unkeyedContainer() {
            var items: [JSONValue] = []
            while !list.isAtEnd { items.append(try list.decode(SingerConfig.self).json) }
            return .array(items)
        }
        let text = try single.decode(String.self)
        if text == "true" || text == "false" { return .bool(text == "true") }
        // A number only as JSON writes one: `007` stays the string it probably is.
        if case .number? = try? JSONParser.parse(text) { return .number(text) }
        return .string(text)
    }
}

/// A coding key made at run time: for options whose keys are data (a mapping of any keys, decoded
/// with `decoder.container(keyedBy: AnyCodingKey.self)`).
public struct AnyCodingKey: CodingKey, Sendable {
    public var stringValue: String
    public var intValue: Int?

    public init(stringValue: String) { self.stringValue = stringValue }
    public init(intValue: Int) {
        self.stringValue = String(intValue)
        self.intValue = intValue
    }
}

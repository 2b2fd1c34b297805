/// A coding key made at run time: for options whose keys are data (a mapping of any keys, decoded
/// with `decoder.container(keyedBy: AnyCodingKey.self)`).
public struct AnyCodingKey: CodingKey, Sendable {
    /// The key's text.
    public var stringValue: String
    /// The key's index in an array, or `nil` for a mapping's key.
    public var intValue: Int?

    /// The key `stringValue`.
    public init(stringValue: String) { self.stringValue = stringValue }
    /// The key of an array's element at `intValue`.
    public init(intValue: Int) {
        self.stringValue = String(intValue)
        self.intValue = intValue
    }
}

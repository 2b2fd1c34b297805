import Foundation

/// The JSON every command prints with `--json`: snake_case keys (`stale_urls`,
/// `outbox_delivered`), sorted, indented, with `/` unescaped.
enum JSONText {
    static func encode(_ value: some Encodable) -> String {
        encode(value, formatting: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
    }

    /// `value` on one line, for output read line by line (`feedwork worker --json`).
    static func line(_ value: some Encodable) -> String {
        encode(value, formatting: [.sortedKeys, .withoutEscapingSlashes])
    }

    private static func encode(_ value: some Encodable, formatting: JSONEncoder.OutputFormatting) -> String {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.outputFormatting = formatting
        // Every value printed is plain data (strings, numbers, arrays); encoding cannot fail.
        let data = (try? encoder.encode(value)) ?? Data("null".utf8)
        let text = String(decoding: data, as: UTF8.self)
        // Foundation pretty-prints an empty list as "[\n\n]".
        return text == "[\n\n]" ? "[]" : text
    }
}

/// An optional that `--json` prints as `null` instead of leaving its key out, so every object
/// of a kind has the same keys.
@propertyWrapper
struct NullWhenAbsent<Value: Encodable>: Encodable {
    var wrappedValue: Value?

    init(wrappedValue: Value?) { self.wrappedValue = wrappedValue }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(wrappedValue)
    }
}

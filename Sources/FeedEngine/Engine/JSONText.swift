import Foundation

/// The JSON every command prints with `--json` and `feedwork serve`'s API answers with:
/// snake_case keys (`stale_urls`, `outbox_delivered`), sorted, with `/` unescaped.
public enum JSONText {
    /// `value` indented, for a person reading a command's output.
    public static func encode(_ value: some Encodable) -> String {
        encode(value, formatting: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
    }

    /// `value` on one line, for output read line by line (`feedwork worker --json`) and the API.
    public static func line(_ value: some Encodable) -> String {
        encode(value, formatting: [.sortedKeys, .withoutEscapingSlashes])
    }

    private static func encode(_ value: some Encodable, formatting: JSONEncoder.OutputFormatting) -> String {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.outputFormatting = formatting
        // Every value encoded is plain data (strings, integers, arrays; records travel as JSON
        // text written by the export code), so encoding cannot fail.
        let data = (try? encoder.encode(value)) ?? Data("null".utf8)
        let text = String(decoding: data, as: UTF8.self)
        // Foundation pretty-prints an empty list as "[\n\n]".
        return text == "[\n\n]" ? "[]" : text
    }
}

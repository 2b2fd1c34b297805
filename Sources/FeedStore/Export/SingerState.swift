import FeedKit
import Foundation

/// The Singer `STATE` that ends `export --format singer`, and its way back in as
/// `--changed-since`.
///
/// The state's value is `{"feedwork_run": N}`, N being the last run the export holds completely
/// (as in the export manifest). A Singer target prints the last state it received; given back
/// to `feedwork export --format singer --changed-since STATE` (the JSON itself, a `STATE`
/// message, or a file whose last line is either), the next export holds only the rows changed
/// since, so a target is fed incrementally.
public enum SingerState {
    /// The key of the run id in the state's value.
    public static let runKey = "feedwork_run"

    /// The STATE message for `run`, one line of JSON without its newline.
    package static func message(run: Int64) -> String {
        JSONValue.object(
            JSONObject([
                ("type", .string("STATE")),
                ("value", .object(JSONObject([(runKey, .number(String(run)))]))),
            ])
        ).jsonText
    }

    public static let noDeletedRows = ExportError.usage(
        "--include-deleted: Singer has no message for a deleted row; export deletions as ndjson, json or csv")

    /// The run id of a Singer state given to `--changed-since`: the state's JSON (its value or a
    /// whole `STATE` message), or a file whose last non-empty line is one. `nil` when `text` is
    /// neither JSON nor the path of a file.
    ///
    /// - Throws: a usage ``ExportError`` for a state that holds no `feedwork_run`.
    package static func run(from text: String) throws(ExportError) -> Int64? {
        var json = text.trimmingCharacters(in: .whitespacesAndNewlines)
        var origin = "the state"
        if !json.hasPrefix("{") {
            guard FileManager.default.fileExists(atPath: text), let data = FileManager.default.contents(atPath: text)
            else { return nil }
            origin = text
            json =
                String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline)
                .last { !$0.trimmingCharacters(in: .whitespaces).isEmpty }.map(String.init) ?? ""
        }
        guard let document = try? JSONParser.parse(Data(json.utf8)) else {
            throw .usage("--changed-since: \(origin) is not JSON (expected a Singer state such as {\"\(runKey)\": 42})")
        }
        let value = document["value"] ?? document
        guard case .number(let digits)? = value[runKey], let run = Int64(digits) else {
            throw .usage(
                "--changed-since: \(origin) holds no \(runKey) (expected a state written by `feedwork export --format singer`, such as {\"\(runKey)\": 42})"
            )
        }
        return run
    }
}

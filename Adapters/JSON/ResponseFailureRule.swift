import FeedKit

/// `error_path:` and `error_when:`, compiled: how a response answered with 200 says that the
/// request failed all the same (`{"error": {"message": "quota exceeded"}}`,
/// `{"status": "error", ...}`). Such a response fails the pass with its message, so nothing
/// it would have changed is changed.
struct ResponseFailureRule: Sendable {
    /// A member whose presence (any value but null) means failure; its value is the message.
    let errorPath: JSONPath?
    /// A member whose text (a string, a number as written, `true` or `false`) is `equals`
    /// when the request failed, as `entities:`' `when` and `delete_when`'s member form read it.
    let condition: (path: JSONPath, equals: String)?

    /// Checks the options; `nil` when the feed has neither.
    init?(_ options: JSONAdapter.Options, errors: inout OptionError.List) {
        guard options.errorPath != nil || options.errorWhen != nil else { return nil }
        errorPath = options.errorPath.flatMap { text in
            errors.check { () throws(OptionError) in try FieldCompiler.parsePath(text, at: ["error_path"]) }
        }
        condition = options.errorWhen.flatMap { when in
            errors.check { () throws(OptionError) in
                (try FieldCompiler.parsePath(when.path, at: ["error_when", "path"]), when.equals)
            }
        }
    }

    /// The failure `document` says, if it says one: the JSON path that says it and the message.
    func failure(in document: JSONValue) -> (path: String, message: String)? {
        let reported = errorPath.flatMap { path -> (path: String, message: String)? in
            guard let value = path.lookup(document), !value.isNull else { return nil }
            return (path.description, Self.message(of: value))
        }
        guard let condition else { return reported }
        guard let value = condition.path.lookup(document), ValueConverter.text(of: value) == condition.equals else {
            return nil
        }
        return reported ?? (condition.path.description, "\(condition.path.description) is '\(condition.equals)'")
    }

    /// A value as a message: a text as it is, anything else as JSON.
    private static func message(of value: JSONValue) -> String {
        if case .string(let text) = value { return text }
        return value.jsonText
    }
}

/// A response that says the request failed (`error_path`, `error_when`), although its status
/// is a success.
struct ResponseFailureError: Error, CustomStringConvertible {
    var feed: String
    var url: String
    var path: String
    var message: String
    var description: String {
        "feed '\(feed)': \(url) at \(path): the response says the request failed: \(message); nothing was changed"
    }
}

extension JSONAdapter {
    /// The checked `empty_statuses:`: failure statuses (400 to 599, but 401, which renews
    /// OAuth2 tokens) that mean "no records here".
    static func emptyStatuses(_ options: Options, errors: inout OptionError.List) -> Set<Int> {
        var statuses: Set<Int> = []
        for (index, status) in (options.emptyStatuses ?? []).enumerated() {
            guard (400...599).contains(status), status != 401 else {
                errors.append(
                    OptionError(
                        "empty_statuses lists failure statuses (400 to 599, not 401), not \(status)",
                        at: ["empty_statuses", String(index)]))
                continue
            }
            statuses.insert(status)
        }
        return statuses
    }
}

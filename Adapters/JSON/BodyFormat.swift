import FeedKit
import Foundation

/// How a `POST` body written in YAML is sent (`body_format:`).
enum BodyFormat: String, Sendable, CaseIterable {
    /// The body as JSON (`Content-Type: application/json`).
    case json
    /// A mapping of scalars, URL-encoded (`Content-Type: application/x-www-form-urlencoded`).
    case form
    /// A string sent as it is (`Content-Type: text/plain; charset=utf-8` unless a header says otherwise).
    case raw

    /// The `Content-Type` sent when the feed's headers set none.
    var contentType: String {
        switch self {
        case .json: "application/json"
        case .form: "application/x-www-form-urlencoded"
        case .raw: "text/plain; charset=utf-8"
        }
    }

    /// The body's format, checked against the body: every problem is reported at `body` or
    /// `body_format`.
    static func check(_ body: YAMLJSON?, format text: String?) throws(OptionError) -> BodyFormat {
        guard let text else {
            if case .string(let template)? = body,
                let first = template.source.trimmingSpaces.first,
                first == "{" || first == "["
            {
                throw OptionError(
                    "this body is a string that looks like JSON, and a string body is sent as a JSON string literal (\"...\"); write the body as YAML (body: { query: w }), or add body_format: raw to send the text as it is",
                    at: ["body"])
            }
            return .json
        }
        guard let format = BodyFormat(rawValue: text) else {
            throw OptionError("body_format must be json, form or raw, not '\(text)'", at: ["body_format"])
        }
        guard let body else { throw OptionError("body_format needs a body", at: ["body_format"]) }
        switch (format, body) {
        case (.json, _): break
        case (.form, .object(let members)):
            for (name, value) in members {
                switch value {
                case .array, .object:
                    throw OptionError(
                        "a form body's values are scalars; '\(name)' is a \(value.isArray ? "list" : "mapping")",
                        at: ["body", name])
                default: break
                }
            }
        case (.form, _):
            throw OptionError("a form body is a mapping of names to values", at: ["body"])
        case (.raw, .string): break
        case (.raw, _):
            throw OptionError("a raw body is a string, sent as it is", at: ["body"])
        }
        return format
    }

    /// `body`, rendered, as the bytes sent.
    func encode(_ body: YAMLJSON, now: Date, cursor: String?, values: [String: String]) -> Data {
        let rendered = body.render(now: now, cursor: cursor, values: values)
        switch self {
        case .json:
            return Data(rendered.jsonText.utf8)
        case .form:
            guard case .object(let object) = rendered else { return Data() }
            let pairs = object.members.compactMap { name, value -> String? in
                let text: String
                switch value {
                case .null: return nil
                case .string(let string): text = string
                default: text = ValueConverter.text(of: value) ?? value.jsonText
                }
                return URLQuery.encode(name) + "=" + URLQuery.encode(text)
            }
            return Data(pairs.joined(separator: "&").utf8)
        case .raw:
            return Data((rendered.stringValue ?? "").utf8)
        }
    }
}

extension YAMLJSON {
    fileprivate var isArray: Bool {
        if case .array = self { return true }
        return false
    }
}

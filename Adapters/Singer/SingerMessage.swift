import FeedKit
import Foundation

/// One line of a Singer tap's standard output, parsed.
///
/// The Singer specification's messages are JSON objects, one per line, told apart by `type`:
/// `SCHEMA` (a stream's JSON Schema and key), `RECORD` (one row of a stream) and `STATE` (a
/// bookmark to pass back next time). Other types (`ACTIVATE_VERSION`, ...) are kept as
/// ``other(type:)`` and ignored by the adapter.
enum SingerMessage: Sendable, Equatable {
    /// A stream's schema, announced before its records.
    case schema(stream: String, schema: JSONValue, keyProperties: [String], bookmarkProperties: [String])
    /// One record of a stream: a JSON object.
    case record(stream: String, record: JSONValue)
    /// The tap's bookmark: any JSON value, passed back with `--state` on the next pass.
    case state(JSONValue)
    /// A message type the adapter does not act on, such as `ACTIVATE_VERSION`.
    case other(type: String)

    /// Parses one line of output.
    ///
    /// - Throws: ``SingerError/Reason`` saying why the line is not a Singer message: not JSON,
    ///   not an object, no `type`, or a message without the members its type needs.
    static func parse(_ line: Data) throws(SingerError.Reason) -> SingerMessage {
        let value: JSONValue
        do {
            value = try JSONParser.parse(line)
        } catch {
            throw .malformedLine("not JSON (\(error.message), column \(error.column))")
        }
        guard case .object(let object) = value else {
            throw .malformedLine("expected a JSON object, found \(value.kindName)")
        }
        guard let type = object["type"]?.stringValue else {
            throw .malformedLine("the message has no \"type\"")
        }
        switch type {
        case "SCHEMA":
            let stream = try member("stream", of: object, type: type)
            guard let schema = object["schema"], case .object = schema else {
                throw .malformedLine("a SCHEMA message needs an object \"schema\"")
            }
            return .schema(
                stream: stream, schema: schema,
                keyProperties: try names("key_properties", of: object),
                bookmarkProperties: try names("bookmark_properties", of: object))
        case "RECORD":
            let stream = try member("stream", of: object, type: type)
            guard let record = object["record"], case .object = record else {
                throw .malformedLine("a RECORD message needs an object \"record\"")
            }
            return .record(stream: stream, record: record)
        case "STATE":
            guard let value = object["value"] else { throw .malformedLine("a STATE message needs a \"value\"") }
            return .state(value)
        case "BATCH":
            // Its records are in files the message points to, which Feedwork does not read.
            throw .unsupported("BATCH messages (records in files) are not supported; run the tap without batch_config")
        default:
            return .other(type: type)
        }
    }

    private static func member(_ name: String, of object: JSONObject, type: String) throws(SingerError.Reason)
        -> String
    {
        guard let text = object[name]?.stringValue, !text.isEmpty else {
            throw .malformedLine("a \(type) message needs a string \"\(name)\"")
        }
        return text
    }

    /// A list of property names, or none when the member is missing or null.
    private static func names(_ name: String, of object: JSONObject) throws(SingerError.Reason) -> [String] {
        guard let value = object[name], !value.isNull else { return [] }
        guard let items = value.arrayValue else {
            throw .malformedLine("\"\(name)\" must be a list of property names, found \(value.kindName)")
        }
        var result: [String] = []
        for item in items {
            guard let text = item.stringValue else {
                throw .malformedLine("\"\(name)\" must be a list of property names, found \(item.kindName) in it")
            }
            result.append(text)
        }
        return result
    }
}

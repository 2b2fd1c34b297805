import FeedKit

/// A tool as `tools/list` describes it: its name, what it does, and the JSON Schema of its
/// arguments (every argument a string or an integer, the required ones named).
struct MCPTool: Sendable {
    /// One argument of a tool.
    struct Argument: Sendable {
        enum Kind: String, Sendable {
            case string, integer, object
        }

        var name: String
        var kind: Kind
        var description: String
        var required = false
    }

    var name: String
    var description: String
    var arguments: [Argument]

    /// The tool as `tools/list` gives it.
    var listing: JSONValue {
        let properties = JSONObject(
            arguments.map { argument in
                var members: [(key: String, value: JSONValue)] = [
                    ("type", .string(argument.kind.rawValue)), ("description", .string(argument.description)),
                ]
                if argument.kind == .object {
                    members.append(("additionalProperties", .members(["type": .string("string")])))
                }
                return (key: argument.name, value: .object(JSONObject(members)))
            })
        let schema = JSONValue.members([
            "type": .string("object"),
            "properties": .object(properties),
            "required": .array(arguments.filter(\.required).map { .string($0.name) }),
            "additionalProperties": .bool(false),
        ])
        return .members([
            "name": .string(name), "description": .string(description), "inputSchema": schema,
            "annotations": .members(["readOnlyHint": .bool(true), "openWorldHint": .bool(false)]),
        ])
    }
}

/// The arguments of one `tools/call`, checked against its tool: a missing required argument,
/// an unknown one or one of the wrong type is a protocol error (-32602) naming it.
struct ToolArguments {
    var tool: MCPTool
    var values: JSONObject

    init(tool: MCPTool, values: JSONObject) throws(JSONRPC.Failure) {
        self.tool = tool
        self.values = values
        let known = Set(tool.arguments.map(\.name))
        if let unknown = values.keys.first(where: { !known.contains($0) }) {
            throw JSONRPC.Failure(
                .invalidParams,
                "\(tool.name): unknown argument '\(unknown)'; expected "
                    + tool.arguments.map(\.name).joined(separator: ", "))
        }
        for argument in tool.arguments where argument.required && (values[argument.name]?.isNull ?? true) {
            throw JSONRPC.Failure(.invalidParams, "\(tool.name): the argument '\(argument.name)' is required")
        }
    }

    /// The string `name`, or `nil` when not given.
    func string(_ name: String) throws(JSONRPC.Failure) -> String? {
        switch values[name] {
        case nil, .null?: return nil
        case .string(let text)?: return text
        default: throw JSONRPC.Failure(.invalidParams, "\(tool.name): '\(name)' must be a string")
        }
    }

    /// The required string `name` (``init(tool:values:)`` checked it is there).
    func required(_ name: String) throws(JSONRPC.Failure) -> String { try string(name) ?? "" }

    /// The integer `name` within `range`, or `fallback` when not given.
    func integer(_ name: String, in range: ClosedRange<Int>, default fallback: Int) throws(JSONRPC.Failure) -> Int {
        guard let value = values[name], !value.isNull else { return fallback }
        guard let number = value.int64Value.flatMap({ Int(exactly: $0) }), range.contains(number) else {
            throw JSONRPC.Failure(
                .invalidParams,
                "\(tool.name): '\(name)' must be a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return number
    }

    /// The object `name` of strings (a statement's parameters), empty when not given.
    func strings(_ name: String) throws(JSONRPC.Failure) -> [String: String] {
        guard let value = values[name], !value.isNull else { return [:] }
        guard case .object(let object) = value else {
            throw JSONRPC.Failure(.invalidParams, "\(tool.name): '\(name)' must be an object of strings")
        }
        var result: [String: String] = [:]
        for (key, member) in object.members {
            switch member {
            case .string(let text): result[key] = text
            case .number(let text): result[key] = text
            case .bool(let flag): result[key] = flag ? "true" : "false"
            default:
                throw JSONRPC.Failure(.invalidParams, "\(tool.name): '\(name).\(key)' must be a string or a number")
            }
        }
        return result
    }
}

/// A tool that ran and failed for a reason its caller can act on (an unknown entity, a refused
/// statement, no store yet): answered as a result with `isError`, the message as its text.
struct ToolFailure: Error {
    var message: String

    init(_ message: String) { self.message = message }
}

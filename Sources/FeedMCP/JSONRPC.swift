import FeedKit

/// JSON-RPC 2.0, the messages MCP exchanges: a request (`id` and `method`), a notification
/// (`method` without `id`), and the answers this server writes (a result or an error).
enum JSONRPC {
    /// The error codes JSON-RPC defines, which MCP uses for protocol errors (a tool's own failure
    /// is a result with `isError`, never one of these).
    enum Code: Int {
        /// The line is not JSON.
        case parseError = -32700
        /// JSON, but not a request: no `jsonrpc: "2.0"`, no method, a batch.
        case invalidRequest = -32600
        /// A method this server does not have.
        case methodNotFound = -32601
        /// The method's parameters are missing or of the wrong type, or name an unknown tool.
        case invalidParams = -32602
        /// The server could not answer: the store cannot be read.
        case internalError = -32603
        /// `resources/read` of a URI this server does not have (MCP's code).
        case resourceNotFound = -32002
    }

    /// A protocol error: its code and a message saying what to change.
    struct Failure: Error {
        var code: Code
        var message: String

        init(_ code: Code, _ message: String) {
            self.code = code
            self.message = message
        }
    }

    /// One message received: a request when it has an `id`, otherwise a notification.
    struct Message {
        var id: JSONValue?
        var method: String
        var params: JSONObject

        /// The message in `value`.
        ///
        /// - Throws: ``Failure`` with ``Code/invalidRequest`` when `value` is not a JSON-RPC 2.0
        ///   request or notification; the request's `id` when it has one, to answer it.
        static func parse(_ value: JSONValue) throws(Failure) -> Message {
            guard case .object(let object) = value else {
                throw Failure(
                    .invalidRequest,
                    value.arrayValue != nil
                        ? "batches are not supported: send one message per line" : "expected a JSON-RPC object")
            }
            guard object["jsonrpc"]?.stringValue == "2.0" else {
                throw Failure(.invalidRequest, "expected \"jsonrpc\": \"2.0\"")
            }
            guard let method = object["method"]?.stringValue else {
                throw Failure(.invalidRequest, "expected a \"method\"")
            }
            var params = JSONObject([])
            switch object["params"] {
            case nil, .null?: break
            case .object(let given)?: params = given
            default: throw Failure(.invalidParams, "\(method): params must be an object")
            }
            return Message(id: object["id"], method: method, params: params)
        }
    }

    /// The answer to the request `id` with `result`, on one line.
    static func result(_ result: JSONValue, id: JSONValue) -> String {
        JSONValue.object(JSONObject([("jsonrpc", .string("2.0")), ("id", id), ("result", result)])).jsonText
    }

    /// The error answer to the request `id` (null when it could not be read), on one line.
    static func error(_ failure: Failure, id: JSONValue?) -> String {
        let error = JSONValue.object(
            JSONObject([("code", .number(String(failure.code.rawValue))), ("message", .string(failure.message))]))
        return JSONValue.object(JSONObject([("jsonrpc", .string("2.0")), ("id", id ?? .null), ("error", error)]))
            .jsonText
    }
}

extension JSONValue {
    /// An object of `members`, in their order.
    static func members(_ members: KeyValuePairs<String, JSONValue>) -> JSONValue {
        .object(JSONObject(members.map { (key: $0.key, value: $0.value) }))
    }
}

import FeedEngine
import FeedKit

/// `feedwork mcp`: a Model Context Protocol server over a config's store, read-only.
///
/// It answers JSON-RPC 2.0 messages one at a time (``answer(_:)``), whatever carries them
/// (``MCPStdio`` for a process an editor starts): `initialize`, `ping`, `tools/list`,
/// `tools/call` (the tools of ``FeedTools``), `resources/list` and `resources/read` (the store's
/// schema as `feedwork://schema`, and the docs pages on writing feeds, ``DocsPages``). Nothing it does writes the store or the config.
public struct MCPServer: Sendable {
    /// The protocol versions it speaks, newest first: it answers `initialize` with the client's
    /// when it is one of these, otherwise with the newest.
    public static let protocolVersions = ["2025-06-18", "2025-03-26", "2024-11-05"]
    /// The URI of the store's schema resource.
    static let schemaURI = "feedwork://schema"

    /// The resource of the docs page at `path` (`docs/json/pagination.md`): `feedwork://docs/json/pagination.md`.
    static func docsURI(_ path: String) -> String { "feedwork://" + path }

    let tools: FeedTools
    let version: String

    /// A server over `config`'s store; `registry` checks the configs `validate_config` is given,
    /// `version` is the server's in `initialize`.
    public init(config: FeedsConfig, registry: AdapterRegistry, version: String) {
        tools = FeedTools(config: config, registry: registry)
        self.version = version
    }

    /// The answer to one message (`line`, one JSON text), on one line; `nil` for a
    /// notification or a client's response, which get none.
    public func answer(_ line: String) async -> String? {
        let value: JSONValue
        do {
            value = try JSONParser.parse(line)
        } catch {
            return JSONRPC.error(JSONRPC.Failure(.parseError, error.description), id: nil)
        }
        let message: JSONRPC.Message
        do {
            message = try JSONRPC.Message.parse(value)
        } catch {
            // A client's answer to a request (this server sends none) is no message to answer.
            if value["method"] == nil, value["id"] != nil, value["result"] != nil || value["error"] != nil {
                return nil
            }
            return JSONRPC.error(error, id: value["id"])
        }
        guard let id = message.id else { return nil }
        do {
            return JSONRPC.result(try await result(of: message), id: id)
        } catch {
            return JSONRPC.error(error, id: id)
        }
    }

    private func result(of message: JSONRPC.Message) async throws(JSONRPC.Failure) -> JSONValue {
        switch message.method {
        case "initialize":
            let asked = message.params["protocolVersion"]?.stringValue ?? ""
            let version = Self.protocolVersions.contains(asked) ? asked : Self.protocolVersions[0]
            return .members([
                "protocolVersion": .string(version),
                "capabilities": .members(["tools": .members([:]), "resources": .members([:])]),
                "serverInfo": .members(["name": .string("feedwork"), "version": .string(self.version)]),
                "instructions": .string(
                    "Feedwork's store of feeds loaded from web APIs, read-only: list_feeds and list_entities first,"
                        + " then describe_entity, query_sql, search, get_record, feed_runs and feed_rejects."),
            ])
        case "ping":
            return .members([:])
        case "tools/list":
            return .members(["tools": .array(FeedTools.catalog.map(\.listing))])
        case "tools/call":
            guard let name = message.params["name"]?.stringValue else {
                throw JSONRPC.Failure(.invalidParams, "tools/call: expected the tool's \"name\"")
            }
            let arguments: JSONObject
            switch message.params["arguments"] {
            case nil, .null?: arguments = JSONObject([])
            case .object(let given)?: arguments = given
            default: throw JSONRPC.Failure(.invalidParams, "tools/call: \"arguments\" must be an object")
            }
            let (text, isError) = try await tools.call(name, arguments: arguments)
            return .members([
                "content": .array([.members(["type": .string("text"), "text": .string(text)])]),
                "isError": .bool(isError),
            ])
        case "resources/list":
            return .members([
                "resources": .array(
                    [
                        .members([
                            "uri": .string(Self.schemaURI), "name": .string("schema"),
                            "description": .string(
                                "The store's entities and child tables: fields, types, keys, relations, search fields,"
                                    + " row counts."),
                            "mimeType": .string("application/json"),
                        ])
                    ]
                        + DocsPages.pages.map { page in
                            .members([
                                "uri": .string(Self.docsURI(page.path)), "name": .string(page.path),
                                "description": .string(page.title), "mimeType": .string("text/markdown"),
                            ])
                        })
            ])
        case "resources/read":
            guard let uri = message.params["uri"]?.stringValue else {
                throw JSONRPC.Failure(.invalidParams, "resources/read: expected the resource's \"uri\"")
            }
            if let page = DocsPages.pages.first(where: { Self.docsURI($0.path) == uri }) {
                return .members([
                    "contents": .array([
                        .members([
                            "uri": .string(uri), "mimeType": .string("text/markdown"), "text": .string(page.text),
                        ])
                    ])
                ])
            }
            guard uri == Self.schemaURI else {
                throw JSONRPC.Failure(
                    .resourceNotFound,
                    "no resource \(uri); the resources: "
                        + ([Self.schemaURI] + DocsPages.pages.map { Self.docsURI($0.path) }).joined(separator: ", "))
            }
            let text: String
            do {
                text = tools.answer(try await tools.schemaDocument())
            } catch {
                throw JSONRPC.Failure(.internalError, tools.answer(String(describing: error)))
            }
            return .members([
                "contents": .array([
                    .members(["uri": .string(uri), "mimeType": .string("application/json"), "text": .string(text)])
                ])
            ])
        default:
            throw JSONRPC.Failure(.methodNotFound, "no method '\(message.method)'")
        }
    }
}

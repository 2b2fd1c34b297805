import FeedPricing
import FeedTestSupport
import Foundation
import Hummingbird
import Testing

/// `/api/openapi.json` declares each parameter as the server checks it, and the server answers
/// what it refuses as HTTP says (a 405 names the allowed methods).
@Suite struct ServeOpenAPIContractTests {
    typealias JSON = [String: Any]

    @Test(arguments: [HTTPRequest.Method.post, .put, .delete, .patch, .options])
    func aRefusedMethodNamesTheAllowedOnes(method: HTTPRequest.Method) async throws {
        let harness = try await ServedStore.harness(.sqlite)
        try await ServedStore.serve(harness) { client in
            for uri in ["/api/feeds", "/entities/classified", "/no/such/page"] {
                let response = try await client.execute(uri: uri, method: method)
                #expect(response.status == .methodNotAllowed, "\(method) \(uri)")
                #expect(response.headers["allow"] == "GET, HEAD", "\(method) \(uri)")
            }
        }
    }

    /// A request target over the server's bound is a 414, which every operation declares: a
    /// client may send many parameters (Schemathesis found one over the bound).
    @Test func aTooLongTargetIsADeclared414() async throws {
        let harness = try await ServedStore.harness(.sqlite)
        try await ServedStore.serve(harness) { client in
            let document = try #require(
                try ServedStore.json(try await client.execute(uri: "/api/openapi.json", method: .get)) as? JSON)
            let paths = try #require(document["paths"] as? JSON)
            for (path, item) in paths {
                let responses = ((item as? JSON)?["get"] as? JSON)?["responses"] as? JSON
                #expect(responses?["414"] != nil, "\(path)")
            }
            let long = "/api/entities/classified/rows?q=" + String(repeating: "a", count: 9000)
            let answer = try await client.execute(uri: long, method: .get)
            #expect(answer.status.code == 414)
        }
    }

    /// The declared schema of `name` in the operation at `path`.
    static func schema(_ document: JSON, path: String, parameter name: String) throws -> JSON {
        let paths = try #require(document["paths"] as? JSON)
        let operation = try #require((paths[path] as? JSON)?["get"] as? JSON)
        let parameters = try #require(operation["parameters"] as? [JSON])
        return try #require(parameters.first { $0["name"] as? String == name }?["schema"] as? JSON, "\(path) \(name)")
    }

    /// Each `limit` is declared an integer with its bounds, and the server takes exactly those:
    /// the bounds, not one past them, not an empty or non-numeric value.
    @Test func everyLimitIsDeclaredAsTheServerChecksIt() async throws {
        let harness = try await ServedStore.harness(.sqlite)
        try await ServedStore.serve(harness) { client in
            let document = try #require(
                try ServedStore.json(try await client.execute(uri: "/api/openapi.json", method: .get)) as? JSON)
            let routes = [
                ("/api/feeds/{feed}/runs", "/api/feeds/ads/runs"),
                ("/api/feeds/{feed}/rejects", "/api/feeds/ads/rejects"),
                ("/api/entities/{entity}/rows", "/api/entities/classified/rows"),
            ]
            for (path, uri) in routes {
                let schema = try Self.schema(document, path: path, parameter: "limit")
                #expect(schema["type"] as? String == "integer", "\(path)")
                let minimum = try #require(schema["minimum"] as? Int, "\(path)")
                let maximum = try #require(schema["maximum"] as? Int, "\(path)")
                for accepted in [minimum, maximum] {
                    let status = try await client.execute(uri: "\(uri)?limit=\(accepted)", method: .get).status
                    #expect(status == .ok, "\(uri)?limit=\(accepted)")
                }
                for refused in ["\(minimum - 1)", "\(maximum + 1)", "", "ten"] {
                    let status = try await client.execute(uri: "\(uri)?limit=\(refused)", method: .get).status
                    #expect(status == .badRequest, "\(uri)?limit=\(refused)")
                }
            }
        }
    }

    /// `before` is declared a run id from 1, and the server takes exactly those.
    @Test func beforeIsDeclaredAsTheServerChecksIt() async throws {
        let harness = try await ServedStore.harness(.sqlite)
        try await ServedStore.serve(harness) { client in
            let document = try #require(
                try ServedStore.json(try await client.execute(uri: "/api/openapi.json", method: .get)) as? JSON)
            let schema = try Self.schema(document, path: "/api/feeds/{feed}/runs", parameter: "before")
            #expect(schema["type"] as? String == "integer")
            let minimum = try #require(schema["minimum"] as? Int)
            let accepted = try await client.execute(uri: "/api/feeds/ads/runs?before=\(minimum)", method: .get)
            #expect(accepted.status == .ok)
            for refused in ["\(minimum - 1)", "-2641739", "", "ten"] {
                let status = try await client.execute(uri: "/api/feeds/ads/runs?before=\(refused)", method: .get).status
                #expect(status == .badRequest, "before=\(refused)")
            }
        }
    }

    /// Whether the pricing takes `item`: a good of the catalog with a quantity in bounds.
    static func priced(_ item: String) -> Bool {
        guard let basket = try? Basket.parse(arguments: [item]), !basket.isEmpty else { return false }
        return BasketQuote.unknownGoods(basket, in: .standard) == nil
    }

    /// An `item` the declared pattern allows is one the pricing takes; one the pricing refuses
    /// the pattern does not allow.
    @Test func itemsAreDeclaredAsTheServerChecksThem() async throws {
        let harness = try await ServedStore.harness(.sqlite)
        try await ServedStore.serve(harness) { client in
            let document = try #require(
                try ServedStore.json(try await client.execute(uri: "/api/openapi.json", method: .get)) as? JSON)
            let schema = try Self.schema(document, path: "/api/price", parameter: "item")
            let pattern = try #require((schema["items"] as? JSON)?["pattern"] as? String)
            let regex = try Regex(pattern)
            let goods = GoodsCatalog.standard.names
            var items = goods + goods.map { $0.lowercased() + "=2" } + goods.map { $0.uppercased() + "=999999" }
            items += ["caviar", "caviar=1", "milk=0", "milk=", "milk=two", "milk=-1", "milk=1000001", "", "=3"]
            for item in items {
                if item.wholeMatch(of: regex) != nil {
                    #expect(Self.priced(item), "the pattern allows '\(item)', which the pricing refuses")
                } else {
                    #expect(!Self.priced(item), "the pattern refuses '\(item)', which the pricing takes")
                }
            }
            #expect(goods.allSatisfy { $0.wholeMatch(of: regex) != nil })
        }
    }
}

import FeedEngine
import FeedServer
import FeedTestSupport
import Foundation
import Hummingbird
import Testing

/// The token, the read-only methods, the limits and escaping.
@Suite struct ServeSafetyTests {
    static let token = "0123456789abcdef-token"

    @Test func withATokenARequestWithoutItIsUnauthorized() async throws {
        let harness = try await ServedStore.harness(.sqlite)
        try await ServedStore.serve(harness, token: Self.token) { client in
            let status1 = try await client.execute(uri: "/api/feeds", method: .get).status
            #expect(status1 == .unauthorized)
            let status2 = try await client.execute(uri: "/", method: .get).status
            #expect(status2 == .unauthorized)
            let wrong = try await client.execute(
                uri: "/api/feeds", method: .get, headers: ["Authorization": "Bearer nope"])
            #expect(wrong.status == .unauthorized)
        }
    }

    @Test func withATokenARequestCarryingItIsServed() async throws {
        let harness = try await ServedStore.harness(.sqlite)
        try await ServedStore.serve(harness, token: Self.token) { client in
            let bearer = try await client.execute(
                uri: "/api/feeds", method: .get, headers: ["Authorization": "Bearer \(Self.token)"])
            #expect(bearer.status == .ok)
            let query = try await client.execute(uri: "/?token=\(Self.token)", method: .get)
            #expect(query.status == .ok)
            #expect(query.headers["set-cookie"]?.contains("HttpOnly") == true)
        }
    }

    @Test func anAddressOffLoopbackNeedsAToken() async throws {
        let harness = try await ServedStore.harness(.sqlite)
        let browser = try StoreBrowser(config: try harness.config())
        func problem(_ host: String, _ token: String?) -> String? {
            ServeSettings(address: ListenAddress(host: host, port: 8080), token: token, browser: browser, pricing: nil)
                .problem
        }
        #expect(problem("127.0.0.1", nil) == nil)
        #expect(problem("0.0.0.0", nil)?.contains(ServeSettings.tokenVariable) == true)
        #expect(problem("0.0.0.0", "short") != nil)
        #expect(problem("0.0.0.0", Self.token) == nil)
    }

    @Test func onlyGetAndHeadAreServed() async throws {
        let harness = try await ServedStore.harness(.sqlite)
        try await ServedStore.serve(harness) { client in
            let status3 = try await client.execute(uri: "/api/feeds", method: .post).status
            #expect(status3 == .methodNotAllowed)
            let status4 = try await client.execute(uri: "/api/feeds", method: .delete).status
            #expect(status4 == .methodNotAllowed)
        }
    }

    @Test func aLongRequestTargetIsRefused() async throws {
        let harness = try await ServedStore.harness(.sqlite)
        try await ServedStore.serve(harness) { client in
            let long = "/api/entities/classified/rows?where=title%7E" + String(repeating: "a", count: 9000)
            let status5 = try await client.execute(uri: long, method: .get).status
            #expect(status5 == .uriTooLong)
        }
    }

    @Test func aFeedValueIsEscapedOnThePage() async throws {
        let harness = try await ServedStore.harness(.sqlite)
        try await harness.execute("UPDATE classified SET title = '<script>alert(1)</script>'")
        try await ServedStore.serve(harness) { client in
            for uri in ["/entities/classified?view=table", "/entities/classified"] {
                let page = ServedStore.text(try await client.execute(uri: uri, method: .get))
                #expect(page.contains("&lt;script&gt;alert(1)&lt;/script&gt;"), "\(uri)")
                #expect(!page.contains("<script>alert(1)"), "\(uri)")
            }
        }
    }
}

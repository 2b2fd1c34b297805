import FeedTestSupport
import Foundation
import Testing

/// A path no route serves is answered like every other 404: a page with a way back, or a JSON
/// error under `/api`, never an empty body.
@Suite struct ServeNotFoundTests {
    @Test func anUnknownPageIsAPageWithAWayBackToTheFeeds() async throws {
        let harness = try await ServedStore.harness(.sqlite)
        try await ServedStore.serve(harness) { client in
            let response = try await client.execute(uri: "/nowhere", method: .get)
            #expect(response.status == .notFound)
            #expect(response.headers["content-type"]?.hasPrefix("text/html") == true)
            let page = ServedStore.text(response)
            #expect(page.contains("there is no page at /nowhere"), "\(page)")
            #expect(page.contains(#"<a href="/">Back to the feeds</a>"#), "\(page)")
        }
    }

    @Test func anUnknownAPIRouteIsAJSONError() async throws {
        let harness = try await ServedStore.harness(.sqlite)
        try await ServedStore.serve(harness) { client in
            for uri in ["/api/nowhere", "/api"] {
                let response = try await client.execute(uri: uri, method: .get)
                #expect(response.status == .notFound, "\(uri)")
                #expect(response.headers["content-type"]?.hasPrefix("application/json") == true, "\(uri)")
                let document = try ServedStore.json(response) as? [String: Any]
                #expect(
                    document?["error"] as? String
                        == "no route \(uri); the routes are described at /api/openapi.json", "\(uri)")
            }
        }
    }
}

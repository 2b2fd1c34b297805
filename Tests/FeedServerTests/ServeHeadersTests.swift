import FeedEngine
import FeedServer
import FeedTestSupport
import Foundation
import Hummingbird
import Testing

/// HEAD, the token's scheme in any case, a NUL byte in a filter, and the headers of every
/// answer.
@Suite struct ServeHeadersTests {
    static let token = "0123456789abcdef-token"

    @Test func headIsAnsweredLikeGetWithoutABody() async throws {
        let harness = try await ServedStore.harness(.sqlite)
        try await ServedStore.serve(harness) { client in
            for uri in [
                "/", "/feeds/ads", "/entities", "/entities/classified", "/api/feeds", "/api/entities/classified/rows",
                "/api/openapi.json", "/assets/app.css",
            ] {
                let get = try await client.execute(uri: uri, method: .get)
                let head = try await client.execute(uri: uri, method: .head)
                #expect(head.status == .ok, "HEAD \(uri): \(head.status)")
                #expect(head.body.readableBytes == 0, "HEAD \(uri) has no body")
                #expect(head.headers["content-type"] == get.headers["content-type"], "HEAD \(uri)")
            }
            let missing = try await client.execute(uri: "/entities/nothing", method: .head)
            #expect(missing.status == .notFound)
        }
    }

    @Test func aNULByteInAConditionIsABadRequestNotAMatchOfEveryRow() async throws {
        let harness = try await ServedStore.harness(.sqlite)
        try await ServedStore.serve(harness) { client in
            let api = try await client.execute(uri: "/api/entities/classified/rows?where=title~%00zzzz", method: .get)
            #expect(api.status == .badRequest, "\(ServedStore.text(api))")
            #expect(ServedStore.text(api).contains("NUL"), "\(ServedStore.text(api))")
            let page = try await client.execute(
                uri: "/entities/classified?view=table&field=title&op=~&value=%00zzzz", method: .get)
            #expect(page.status == .badRequest)
            let download = try await client.execute(
                uri: "/api/entities/classified/export.csv?where=title~zz%00zz", method: .get)
            #expect(download.status == .badRequest)
        }
    }

    @Test func theBearerSchemeIsReadInAnyCase() async throws {
        let harness = try await ServedStore.harness(.sqlite)
        try await ServedStore.serve(harness, token: Self.token) { client in
            for header in ["bearer \(Self.token)", "BEARER \(Self.token)", "Bearer  \(Self.token)"] {
                let answer = try await client.execute(
                    uri: "/api/feeds", method: .get, headers: ["Authorization": header])
                #expect(answer.status == .ok, "\(header): \(answer.status)")
            }
            for header in ["Basic \(Self.token)", "bearer", "Bearer \(Self.token)x", "Bearer\(Self.token)"] {
                let answer = try await client.execute(
                    uri: "/api/feeds", method: .get, headers: ["Authorization": header])
                #expect(answer.status == .unauthorized, "\(header): \(answer.status)")
            }
        }
    }

    @Test func everyAnswerIsNotSniffedNotFramedAndNotCached() async throws {
        let harness = try await ServedStore.harness(.sqlite)
        try await ServedStore.serve(harness, token: Self.token) { client in
            let authorized = ["Authorization": "Bearer \(Self.token)"]
            for (uri, headers) in [
                ("/", authorized), ("/entities/classified", authorized), ("/api/feeds", authorized),
                ("/api/entities/classified/rows", authorized), ("/api/entities/nothing/rows", authorized),
                ("/entities/nothing", authorized), ("/api/feeds", [:]), ("/", [:]),
            ] {
                let answer = try await client.execute(uri: uri, method: .get, headers: headers)
                let context = "\(uri) (\(answer.status.code))"
                #expect(answer.headers["x-content-type-options"] == "nosniff", "\(context)")
                #expect(answer.headers["x-frame-options"] == "DENY", "\(context)")
                #expect(
                    answer.headers["content-security-policy"]?.contains("frame-ancestors 'none'") == true, "\(context)")
                #expect(answer.headers["cache-control"] == "no-store", "\(context)")
            }
            let css = try await client.execute(uri: "/assets/app.css", method: .get, headers: authorized)
            #expect(css.headers["cache-control"] == "max-age=300", "the stylesheet may be cached")
        }
    }

    @Test func anErrorPageDoesNotRefresh() async throws {
        let harness = try await ServedStore.harness(.sqlite)
        try await ServedStore.serve(harness) { client in
            let page = ServedStore.text(try await client.execute(uri: "/entities/nothing", method: .get))
            #expect(page.contains("nothing"), "\(page)")
            #expect(!page.contains("http-equiv=\"refresh\""), "\(page)")
            #expect(!page.contains("nil"), "\(page)")
        }
    }
}

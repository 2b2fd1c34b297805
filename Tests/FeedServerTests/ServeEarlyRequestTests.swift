import FeedEngine
import FeedTestSupport
import Foundation
import Hummingbird
import Testing

@testable import FeedServer

/// `feedwork serve` listens while it reads the config and opens the store: a request that
/// comes before is held, then answered as any other.
@Suite struct ServeEarlyRequestTests {
    @Test func aRequestSentBeforeTheStoreIsOpenIsAnsweredOnceItIs() async throws {
        let harness = try await ServedStore.harness(.sqlite)
        let settings = ServeSettings(
            address: ListenAddress(host: "127.0.0.1", port: 0), token: nil,
            browser: try StoreBrowser(config: try harness.config()), pricing: nil)
        let pending = PendingResponder()
        let (ports, listening) = AsyncStream.makeStream(of: Int.self)
        let app = ServeApplication.application(responder: pending, at: settings.address) { listening.yield($0) }
        try await app.run(
            during: {
                var next = ports.makeAsyncIterator()
                guard let port = await next.next() else { throw CancellationError() }
                let client = ServedClient(port: port)
                let early = Task { try await client.execute(uri: "/api/feeds", method: .get) }
                let deadline = ContinuousClock.now + .seconds(60)
                while pending.waitingRequests == 0 {
                    #expect(ContinuousClock.now < deadline, "the request never reached the server")
                    if ContinuousClock.now >= deadline { break }
                    try await Task.sleep(for: .milliseconds(10))
                }
                pending.serve(with: ServeApplication(settings: settings).router().buildResponder())
                let answer = try await early.value
                #expect(answer.status == .ok)
                #expect(ServedStore.text(answer).contains("\"ads\""), "\(ServedStore.text(answer))")
                #expect(pending.waitingRequests == 0)
                let later = try await client.execute(uri: "/api/feeds", method: .get)
                #expect(later.status == .ok)
            }, logger: app.logger)
    }
}

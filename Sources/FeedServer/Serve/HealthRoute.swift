import FeedEngine
import Hummingbird

/// `GET /healthz`: 200 `ok` while the store answers a read, 503 with the reason while it does
/// not (a PostgreSQL server restarting: the store reconnects on a later request).
struct HealthRoute: Sendable {
    let browser: StoreBrowser

    func add(to router: Router<BasicRequestContext>) {
        let browser = browser
        router.get("/healthz") { _, _ -> Response in
            let problem: String?
            do {
                _ = try await ServeError.reading { try await browser.tables() }
                problem = nil
            } catch let error as ServeError {
                problem = error.message
            } catch {
                problem = "\(error)"
            }
            return Response(
                status: problem == nil ? .ok : .serviceUnavailable,
                headers: [.contentType: "text/plain; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(string: (problem ?? "ok") + "\n")))
        }
    }
}

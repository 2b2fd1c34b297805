import FeedEngine
import FeedFixtures
import FeedKit
import FeedTestSupport
import Foundation

/// A policy for tests: tiny backoff, short timeouts, two retries.
func testPolicy(
    timeout: FeedDuration = .seconds(5), retries: Int = 2, maxResponseBytes: Int = 1024 * 1024, maxRedirects: Int = 5
) -> FetchPolicy {
    FetchPolicy(
        timeout: timeout, connectTimeout: .seconds(2), retries: retries, backoff: .milliseconds(10),
        retryAfterCap: .seconds(5), maxResponseBytes: maxResponseBytes, maxRedirects: maxRedirects)
}

/// A context over `cache` for feed `test`.
func testContext(
    cache: InMemoryResponseCache = InMemoryResponseCache(), policy: FetchPolicy = testPolicy(), offline: Bool = false,
    redactor: Redactor = Redactor(), baseDirectory: URL = FileManager.default.temporaryDirectory,
    now: @escaping @Sendable () -> Date = { Date() }
) -> FetchContext {
    FetchContext(
        feed: "test", baseDirectory: baseDirectory, policy: policy, offline: offline, cache: cache,
        redactor: redactor, now: now)
}

/// A cache entry for `request`, fetched `age` seconds before `now`.
func cachedEntry(
    for request: FetchRequest, body: String, age: TimeInterval, now: Date = Date(), etag: String? = nil
) -> CachedResponse {
    CachedResponse(
        key: request.cacheKey, url: request.url, status: 200, headers: [:], etag: etag,
        lastModified: nil, fetchedAt: now.addingTimeInterval(-age), body: Data(body.utf8))
}

/// A folder of its own under the temporary directory, removed by the caller.
func makeTemporaryFolder() throws -> URL {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("feedwork-fetch-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder
}

extension FetchResponse {
    var text: String { String(decoding: body, as: UTF8.self) }
}

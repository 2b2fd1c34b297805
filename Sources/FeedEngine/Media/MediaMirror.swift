import FeedKit
import Foundation
import Synchronization

/// Mirrors the images named by a feed's media columns (``Column/media``) into the store, after
/// its pass committed: it never delays the pass's commit, never fails it and never changes its
/// rows.
///
/// Each URL is fetched through the engine's fetcher (its redirect rules and timeouts), at most
/// ``concurrency`` at a time, with the feed's credentials only on the feed's own origin
/// (``credentials``: headers, query keys, or the OAuth2 access token the pass used, renewed
/// once on a 401; the fetcher drops the headers on a redirect to another host, and the store
/// keeps each URL as the row names it, without a query key), with
/// `max_media_size` as its size limit and no retry (a later pass is the
/// retry). An origin (scheme, host and port) that cannot be reached (no connection, a timeout)
/// is not asked again in the same pass: its other URLs fail with the same error, so an offline
/// machine spends one attempt per origin, not one per image. The origin is the one that failed,
/// after redirects: a URL redirected to a closed port fails alone. The body is kept only
/// when its own first bytes show a JPEG, PNG, GIF or WebP image, whatever the server declared;
/// it is stored once by SHA-256 with its URL's row in one transaction, so a crash never leaves a
/// URL pointing at missing bytes. A URL already mirrored is revalidated with a conditional
/// request once ``refreshAge`` has passed; a failed one waits
/// ``retryBase`` (doubled with each further failure, at most a day) before the next pass tries
/// it again.
struct MediaMirror: Sendable {
    var store: Store
    var fetcher: any Fetching
    var context: FetchContext
    /// Fetches in flight at once.
    var concurrency = 4
    /// How long a mirrored image is trusted before a pass revalidates it.
    var refreshAge: TimeInterval = 86_400
    /// The wait after a first failure.
    var retryBase: TimeInterval = 60
    /// The feed's credentials for an image URL (``FeedAdapter/mediaCredentials(for:)``): only
    /// on the feed's own origin.
    var credentials: @Sendable (String) -> MediaCredentials = { _ in .none }

    /// The fetch context of image requests: the pass's, with `max_media_size` as its size limit
    /// and no retry (a later pass is the retry).
    private var mediaContext: FetchContext {
        var context = self.context
        context.policy.maxResponseBytes = context.policy.maxMediaBytes
        context.policy.retries = 0
        return context
    }

    /// Mirrors the media of `schemas` (their child lists' included) that `feed`'s rows name;
    /// `nil` when none has a media column.
    func mirror(feed: String, schemas: [EntitySchema]) async -> (counts: MediaPassCounts, notes: [String])? {
        let columns = schemas.flatMap { schema in
            schema.mediaTables.flatMap { table in table.columns.map { (table.name, $0) } }
        }
        guard !columns.isEmpty else { return nil }
        var counts = MediaPassCounts()
        var notes: [String] = []
        let referenced: Set<String>
        let records: [String: MediaURLRecord]
        do {
            var urls = Set<String>()
            for (table, column) in columns {
                urls.formUnion(try await store.mediaReferences(feed: feed, table: table, column: column))
            }
            referenced = urls
            try await store.forgetMediaURLs(feed: feed, keeping: referenced)
            records = try await store.mediaURLs(feed: feed)
        } catch {
            return (counts, ["media not mirrored: \(context.redactor.redact(String(describing: error)))"])
        }
        counts.referenced = referenced.count
        let now = Date()
        let due = referenced.sorted().filter { isDue(records[$0], now: now) }
        counts.skipped = referenced.count - due.count
        let unreachable = UnreachableHosts()
        let sessions = MediaSessions(
            carrier: MediaTokenCarrier(store: store, fetcher: fetcher, context: mediaContext, feed: feed))
        await withTaskGroup(of: Outcome.self) { group in
            var next = 0
            func startNext() {
                guard next < due.count, !Task.isCancelled else { return }
                let url = due[next]
                next += 1
                group.addTask {
                    await fetch(url, record: records[url], feed: feed, unreachable: unreachable, sessions: sessions)
                }
            }
            for _ in 0..<concurrency { startNext() }
            while let outcome = await group.next() {
                switch outcome {
                case .fetched: counts.fetched += 1
                case .unchanged: counts.unchanged += 1
                case .failed(let note):
                    counts.failed += 1
                    notes.append(note)
                case .cancelled: break
                }
                startNext()
            }
        }
        if notes.count > 5 { notes = Array(notes.prefix(5)) + ["and \(notes.count - 5) more media not mirrored"] }
        return (counts, notes)
    }

    private enum Outcome: Sendable {
        case fetched, unchanged, failed(String), cancelled
    }

    /// Whether a pass fetches `url` now: never tried, failed and past its retry time, or
    /// mirrored longer ago than ``refreshAge``.
    private func isDue(_ record: MediaURLRecord?, now: Date) -> Bool {
        guard let record else { return true }
        if record.failures > 0 { return (record.retryAt ?? .distantPast) <= now }
        guard record.hash != nil, let checked = record.checkedAt else { return true }
        return now.timeIntervalSince(checked) >= refreshAge
    }

    private func fetch(
        _ url: String, record: MediaURLRecord?, feed: String, unreachable: UnreachableHosts, sessions: MediaSessions
    ) async -> Outcome {
        let redacted = context.redactor.redact(url)
        let origin = FetchError.origin(of: url).map(context.redactor.redact) ?? ""
        do {
            guard FetchRequest.isRemote(url) else {
                // A path or a file:// URL in a row is never read from this machine's disk.
                throw FetchError(.fileUnreadable("only http(s) images are mirrored"), url: redacted)
            }
            if let kind = unreachable.failure(of: origin) { throw FetchError(kind, url: redacted) }
            let credentials = self.credentials(url)
            var request = credentials.request(for: url)
            if record?.hash != nil {
                if let etag = record?.etag { request.headers.append(HTTPHeader("If-None-Match", etag)) }
                if let date = record?.lastModified { request.headers.append(HTTPHeader("If-Modified-Since", date)) }
            }
            let response: FetchResponse
            do {
                if let oauth2 = credentials.oauth2 {
                    response = try await sessions.session(for: oauth2).fetch(request)
                } else {
                    response = try await fetcher.fetch(request, context: mediaContext)
                }
            } catch let error as FetchError {
                switch error.kind {
                case .transport, .timeout: unreachable.mark(error.failedOrigin ?? origin, error.kind)
                default: break
                }
                throw error
            }
            guard let signature = MediaSignature(of: response.body) else {
                throw MediaRefusal(
                    url: redacted, declaredType: response.headers["content-type"],
                    isSVG: Self.looksLikeSVG(response.body))
            }
            let media = FetchedMedia(hash: SHA256.hexDigest(response.body), signature: signature, bytes: response.body)
            let validators = MediaValidators(
                etag: response.headers["etag"], lastModified: response.headers["last-modified"])
            try await store.recordMedia(media, feed: feed, url: url, validators: validators, at: Date())
            return .fetched
        } catch is CancellationError {
            return .cancelled
        } catch let error as FetchError where error.kind == .status(304) && record?.hash != nil {
            let validators = MediaValidators(etag: record?.etag, lastModified: record?.lastModified)
            do {
                try await store.recordMedia(nil, feed: feed, url: url, validators: validators, at: Date())
                return .unchanged
            } catch {
                return .failed("media \(redacted): \(context.redactor.redact(String(describing: error)))")
            }
        } catch {
            let message = context.redactor.redact(String(describing: error))
            let failures = (record?.failures ?? 0) + 1
            let wait = min(retryBase * pow(2, Double(min(failures - 1, 20))), 86_400)
            try? await store.recordMediaFailure(
                feed: feed, url: url, error: message, retryAt: Date().addingTimeInterval(wait), at: Date())
            return .failed("media not mirrored: \(message)")
        }
    }

    /// Whether `body` begins, after blanks and an XML declaration or comments, with an `<svg`
    /// element (for a clearer refusal; anything but an image is refused anyway).
    static func looksLikeSVG(_ body: Data) -> Bool {
        String(decoding: body.prefix(1024), as: UTF8.self).lowercased().contains("<svg")
    }
}

/// The origins (``FetchError/origin(of:)``) a pass's mirroring could not reach, with the error,
/// so that their other URLs are not tried again in the same pass.
final class UnreachableHosts: Sendable {
    private let origins = Mutex<[String: FetchError.Kind]>([:])

    func mark(_ origin: String, _ kind: FetchError.Kind) { origins.withLock { $0[origin] = kind } }

    func failure(of origin: String) -> FetchError.Kind? { origins.withLock { $0[origin] } }
}

import FeedKit
import Foundation

/// What an earlier pass read from a page: how many records it held and what it said about the
/// pages after it, for the validators (ETag, Last-Modified) the page was served with.
///
/// A page the server confirms unchanged (304) needs nothing more, so the pass asks for it with
/// ``FetchRequest/omitsUnchangedBody`` and neither reads, inflates nor parses the cached body.
/// Summaries live in `_state`, keyed by the page's ``CacheKey`` (which reveals no secret), and
/// are written in the same transaction as the cached body they describe. A next link is kept
/// sealed (``Redactor/seal(_:)``), so no secret is stored.
struct PageSummary: Equatable, Sendable {
    var etag: String?
    var lastModified: String?
    var facts: PageFacts
    /// Records of the page the feed's `filter:` left out (absent: none), so an unchanged page
    /// counts only the others as unchanged.
    var filteredOut: Int?

    /// The `_state` key prefix of page summaries.
    static let stateKeyPrefix = "json.page."

    /// The summary of a page read from `response`, or `nil` when the response has no
    /// validators (a later 304 could not be matched to it) or its next link holds a secret that
    /// sealing cannot restore (the page is then read on every pass).
    init?(_ response: FetchResponse, facts: PageFacts, filteredOut: Int = 0, redactor: Redactor) {
        etag = response.headers["etag"]
        lastModified = response.headers["last-modified"]
        guard etag != nil || lastModified != nil else { return nil }
        self.facts = facts
        self.filteredOut = filteredOut > 0 ? filteredOut : nil
        if let continuation = facts.continuation {
            let sealed = redactor.seal(continuation)
            guard redactor.unseal(sealed) == continuation else { return nil }
            self.facts.continuation = sealed
        }
    }

    /// Whether this summary describes the unchanged page of `response`: the cached response
    /// it stands for has the same validators.
    func describes(_ response: FetchResponse) -> Bool {
        response.isUnchangedFromCache && response.headers["etag"] == etag
            && response.headers["last-modified"] == lastModified
    }

    /// The page's facts, with the secrets of a next link put back.
    func facts(unsealedBy redactor: Redactor) -> PageFacts {
        var facts = facts
        facts.continuation = facts.continuation.map(redactor.unseal)
        return facts
    }

    /// The feed's summaries by cache key, as the last passes stored them; unreadable ones are
    /// left out (their pages are read again).
    static func load(_ pass: FeedPass) async throws -> [String: PageSummary] {
        var summaries: [String: PageSummary] = [:]
        for (key, value) in try await pass.states(withPrefix: stateKeyPrefix) {
            guard let summary = PageSummary(json: value) else { continue }
            summaries[String(key.dropFirst(stateKeyPrefix.count))] = summary
        }
        return summaries
    }

    /// Stores this summary for the page cached under `cacheKey`, with the pass.
    func store(forKey cacheKey: String, in pass: FeedPass) async throws {
        try await pass.setState(Self.stateKeyPrefix + cacheKey, jsonText)
    }

    /// The summary as stored: a JSON object with its members in name order and absent values
    /// left out, `{"etag":"\"v1\"","facts":{"recordCount":2,"total":5}}`.
    var jsonText: String {
        var facts: [(key: String, value: JSONValue)] = []
        if let continuation = self.facts.continuation { facts.append(("continuation", .string(continuation))) }
        facts.append(("recordCount", .number(String(self.facts.recordCount))))
        if let total = self.facts.total { facts.append(("total", .number(String(total)))) }
        if let hasMore = self.facts.hasMore { facts.append(("hasMore", .bool(hasMore))) }
        if let totalPages = self.facts.totalPages { facts.append(("totalPages", .number(String(totalPages)))) }
        var members: [(key: String, value: JSONValue)] = []
        if let etag { members.append(("etag", .string(etag))) }
        members.append(("facts", .object(JSONObject(facts))))
        if let filteredOut { members.append(("filteredOut", .number(String(filteredOut)))) }
        if let lastModified { members.append(("lastModified", .string(lastModified))) }
        return JSONValue.object(JSONObject(members)).jsonText
    }

    /// Reads a summary as ``jsonText`` writes it; `nil` when `json` is not one. Read with the
    /// JSON parser of FeedKit rather than `JSONDecoder`, whose set-up cost about as much as the
    /// rest of a pass over a hundred unchanged pages.
    init?(json: String) {
        guard case .object(let object)? = try? JSONParser.parse(json),
            case .object(let facts)? = object["facts"],
            let recordCount = facts["recordCount"]?.int64Value.flatMap({ Int(exactly: $0) })
        else { return nil }
        /// An optional member: absent or null is `nil`; any other kind than `T` is unreadable.
        func optional<T>(_ value: JSONValue?, _ read: (JSONValue) -> T?) -> T?? {
            guard let value, value != .null else { return .some(nil) }
            return read(value).map { .some($0) }
        }
        let int = { (value: JSONValue) in value.int64Value.flatMap { Int(exactly: $0) } }
        guard let etag = optional(object["etag"], \.stringValue),
            let lastModified = optional(object["lastModified"], \.stringValue),
            let filteredOut = optional(object["filteredOut"], int),
            let total = optional(facts["total"], int),
            let totalPages = optional(facts["totalPages"], int),
            let continuation = optional(facts["continuation"], \.stringValue),
            let hasMore = optional(facts["hasMore"], { if case .bool(let flag) = $0 { flag } else { nil } })
        else { return nil }
        self.etag = etag
        self.lastModified = lastModified
        self.filteredOut = filteredOut
        self.facts = PageFacts(
            recordCount: recordCount, total: total, totalPages: totalPages, continuation: continuation,
            hasMore: hasMore)
    }

    /// Removes the summary of the page cached under `cacheKey`, with the pass.
    static func remove(forKey cacheKey: String, in pass: FeedPass) async throws {
        try await pass.setState(stateKeyPrefix + cacheKey, nil)
    }
}

import FeedEngine
import FeedKit
import Foundation

/// The recorded responses of a fixture suite, as kept on disk.
///
/// A suite folder holds `responses.json`, an index of every response, and `responses/`, one
/// file per body (`001.json`, `002.txt`, ...), so a reviewer reads the bodies as they came:
///
/// ```json
/// {
///   "started_at" : "2024-05-01T08:00:00Z",
///   "responses" : [
///     { "method" : "GET", "url" : "http://apilayer.net/api/list?access_key=***",
///       "status" : 200, "headers" : { "content-type" : "application/json" },
///       "body" : "responses/001.json" }
///   ]
/// }
/// ```
///
/// `url` is the request's URL as the adapter made it (an http(s) URL or a path), with secrets
/// replaced by `***`; replays look requests up by method and that redacted URL. `started_at` is
/// the start of the recorded pass; a replay starts its passes at the same moment, so date
/// templates render the same URLs and adapters derive the same dates.
public struct FixtureRecording: Sendable, Hashable {
    /// The index file's name inside a suite folder.
    public static let indexFile = "responses.json"
    /// The folder of the bodies inside a suite folder.
    public static let bodiesFolder = "responses"

    /// When the recorded pass started.
    public var startedAt: Date
    /// The responses in the order they were received.
    public var responses: [RecordedResponse]

    public init(startedAt: Date, responses: [RecordedResponse] = []) {
        self.startedAt = startedAt
        self.responses = responses
    }

    /// Reads the recording of the suite folder `directory`.
    ///
    /// - Throws: ``FixtureError`` when the index or a body file is missing or malformed.
    public static func read(from directory: URL) throws(FixtureError) -> FixtureRecording {
        let indexURL = directory.appendingPathComponent(indexFile)
        let index: Index
        do {
            index = try JSONDecoder().decode(Index.self, from: Data(contentsOf: indexURL))
        } catch {
            throw FixtureError("cannot read the recorded responses \(indexURL.path): \(error)")
        }
        guard let startedAt = Timestamp.date(index.startedAt) else {
            throw FixtureError("\(indexURL.path): started_at '\(index.startedAt)' is not an ISO 8601 instant")
        }
        var responses: [RecordedResponse] = []
        for entry in index.responses {
            let bodyURL = directory.appendingPathComponent(entry.body)
            guard let body = try? Data(contentsOf: bodyURL) else {
                throw FixtureError(
                    "\(indexURL.path): the body \(entry.body) of \(entry.method) \(entry.url) is missing")
            }
            responses.append(
                RecordedResponse(
                    method: entry.method, url: entry.url, status: entry.status, headers: entry.headers, body: body))
        }
        return FixtureRecording(startedAt: startedAt, responses: responses)
    }

    /// Writes the index and the bodies into `directory`, replacing an earlier recording there.
    public func write(to directory: URL) throws(FixtureError) {
        let bodies = directory.appendingPathComponent(Self.bodiesFolder)
        do {
            try? FileManager.default.removeItem(at: bodies)
            try FileManager.default.createDirectory(at: bodies, withIntermediateDirectories: true)
            var entries: [Index.Entry] = []
            for (offset, response) in responses.enumerated() {
                let name = String(format: "%03d", offset + 1) + "." + response.bodyExtension
                try response.body.write(to: bodies.appendingPathComponent(name))
                entries.append(
                    Index.Entry(
                        method: response.method, url: response.url, status: response.status,
                        headers: response.headers, body: "\(Self.bodiesFolder)/\(name)"))
            }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            let index = Index(startedAt: Timestamp.string(startedAt), responses: entries)
            try (encoder.encode(index) + Data("\n".utf8))
                .write(to: directory.appendingPathComponent(Self.indexFile), options: .atomic)
        } catch {
            throw FixtureError("cannot write the recording into \(directory.path): \(error)")
        }
    }

    private struct Index: Codable {
        struct Entry: Codable {
            var method: String
            var url: String
            var status: Int
            var headers: [String: String]
            var body: String
        }

        var startedAt: String
        var responses: [Entry]

        enum CodingKeys: String, CodingKey {
            case responses
            case startedAt = "started_at"
        }
    }
}

/// One recorded response: what a request returned, secrets already replaced.
public struct RecordedResponse: Sendable, Hashable {
    public var method: String
    /// The request's URL as the adapter made it, with secrets replaced by `***`.
    public var url: String
    public var status: Int
    /// Header values by lowercased name, without headers that change on every request.
    public var headers: [String: String]
    public var body: Data

    public init(method: String, url: String, status: Int, headers: [String: String] = [:], body: Data) {
        self.method = method
        self.url = url
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// Headers left out of recordings: they differ on every request or carry session secrets.
    public static let volatileHeaders: Set<String> = [
        "set-cookie", "cookie", "authorization", "date", "age", "expires", "x-request-id", "x-amz-request-id",
        "cf-ray", "x-served-by", "x-cache", "x-cache-hits", "x-timer", "x-github-request-id", "x-fastly-request-id",
        "report-to", "nel", "server-timing", "connection", "keep-alive", "transfer-encoding", "content-length",
        "content-encoding", "via",
    ]

    /// The body file's extension: `json` when the body is JSON, otherwise `txt`.
    var bodyExtension: String { (try? JSONParser.parse(body)) != nil ? "json" : "txt" }
}

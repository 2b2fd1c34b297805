import FeedKit
import Foundation

/// Reads requests whose URL is a path or a `file://` URL from the local file system.
///
/// A relative path (or `file:` URL without a leading `/`) is read from the context's
/// ``FetchContext/baseDirectory``. Files answer like a server would: status 200 and origin
/// ``FetchResponse/Origin/file``; a missing file is ``FetchError/Kind/fileNotFound``, or a 404
/// response when the request accepts it.
public enum FileSource {
    /// The file `location` names: a path or a `file://` URL, relative ones resolved against `baseDirectory`.
    public static func resolve(_ location: String, baseDirectory: URL) -> URL {
        var path = location
        if path.lowercased().hasPrefix("file://") {
            path = String(path.dropFirst("file://".count))
            // file://localhost/path is file:///path.
            if path.lowercased().hasPrefix("localhost/") { path = String(path.dropFirst("localhost".count)) }
            path = path.removingPercentEncoding ?? path
        } else if path.lowercased().hasPrefix("file:") {
            path = String(path.dropFirst("file:".count))
            path = path.removingPercentEncoding ?? path
        }
        if path.hasPrefix("/") {
            return URL(fileURLWithPath: path).standardizedFileURL
        }
        return baseDirectory.appendingPathComponent(path).standardizedFileURL
    }

    /// Reads `request`'s file.
    ///
    /// - Throws: ``FetchError`` with kind ``FetchError/Kind/fileNotFound`` (unless the request
    ///   accepts a 404), ``FetchError/Kind/fileUnreadable(_:)`` for a folder, an unreadable
    ///   file or a URL scheme other than `file`, or ``FetchError/Kind/tooLarge(limit:)`` past the policy's size limit.
    public static func read(_ request: FetchRequest, context: FetchContext) throws(FetchError) -> FetchResponse {
        let url = context.redactor.redact(request.url)
        if let scheme = request.url.range(of: "://").map({ request.url[..<$0.lowerBound].lowercased() }),
            scheme != "file", scheme.allSatisfy({ $0.isLetter || $0.isNumber || "+-.".contains($0) })
        {
            throw FetchError(
                .fileUnreadable("unsupported URL scheme '\(scheme)' (use http, https, file or a path)"), url: url)
        }
        let file = resolve(request.url, baseDirectory: context.baseDirectory)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: file.path, isDirectory: &isDirectory) else {
            if request.acceptsNotFound || request.acceptedStatuses.contains(404) {
                return FetchResponse(url: url, status: 404, body: Data(), origin: .file)
            }
            throw FetchError(.fileNotFound, url: url)
        }
        guard !isDirectory.boolValue else {
            throw FetchError(.fileUnreadable("is a folder"), url: url)
        }
        let limit = context.policy.maxResponseBytes
        if let size = FileSize.ofFile(atPath: file.path), size > limit {
            throw FetchError(.tooLarge(limit: limit), url: url)
        }
        let body: Data
        do {
            body = try Data(contentsOf: file)
        } catch {
            throw FetchError(.fileUnreadable(context.redactor.redact(error.localizedDescription)), url: url)
        }
        guard body.count <= limit else { throw FetchError(.tooLarge(limit: limit), url: url) }
        return FetchResponse(url: url, status: 200, body: body, origin: .file)
    }
}

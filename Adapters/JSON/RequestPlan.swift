import FeedKit
import Foundation

/// The requests of a feed: URL, method, parameters, headers, body and authentication.
struct RequestPlan: Sendable {
    /// May hold date templates and `{{cursor}}`, rendered for each pass.
    let url: TemplatedString
    let method: String
    let params: [(name: String, value: TemplatedString)]
    let headers: [(name: String, value: TemplatedString)]
    let body: YAMLJSON?
    var bodyFormat = BodyFormat.json
    let auth: JSONAdapter.AuthSpec?
    let maxAge: FeedDuration?

    /// Credentials to hide from every message and stored URL, whether or not they came from `${VAR}`.
    var secrets: [String] {
        switch auth {
        case nil: []
        case .bearer(let token)?: [token]
        case .apiKey(_, _, let value)?: [value]
        case .basic(let username, let password)?: [password, Self.basicCredentials(username, password)]
        }
    }

    static func basicCredentials(_ username: String, _ password: String) -> String {
        Data("\(username):\(password)".utf8).base64EncodedString()
    }

    /// The requests of one pass, with every date template evaluated at `now` (so all pages of a
    /// pass ask for the same dates), and the incremental cursor's values when it has one.
    func rendered(now: Date, cursor: IncrementalCursor? = nil, sending sent: String? = nil) -> RenderedRequests {
        var query = params.map { PageRequest.QueryItem(name: $0.name, value: $0.value.render(now: now, cursor: sent)) }
        if let cursor {
            if let param = cursor.param, let sent { query.append(.init(name: param, value: sent)) }
            if let endParam = cursor.endParam, let end = cursor.end {
                query.append(.init(name: endParam, value: end.render(now: now)))
            }
        }
        let url = self.url.render(now: now, cursor: URLQuery.encode(sent ?? ""))
        var headers = self.headers.map { HTTPHeader($0.name, $0.value.render(now: now, cursor: sent)) }
        var authQuery: PageRequest.QueryItem?
        switch auth {
        case nil: break
        case .bearer(let token)?: headers.append(HTTPHeader("Authorization", "Bearer \(token)"))
        case .apiKey(let header?, _, let value)?: headers.append(HTTPHeader(header, value))
        case .apiKey(nil, let name?, let value)?: authQuery = .init(name: name, value: value)
        case .apiKey(nil, nil, _)?: break
        case .basic(let username, let password)?:
            headers.append(HTTPHeader("Authorization", "Basic \(Self.basicCredentials(username, password))"))
        }
        var bodyData: Data?
        if let body {
            bodyData = bodyFormat.encode(body, now: now, cursor: sent)
            if !headers.contains(where: { $0.name.lowercased() == "content-type" }) {
                headers.append(HTTPHeader("Content-Type", bodyFormat.contentType))
            }
        }
        return RenderedRequests(
            url: url, method: method, query: query, headers: headers, authQuery: authQuery, body: bodyData,
            maxAge: maxAge)
    }
}

/// A feed's requests for one pass, ready to be combined with each page's parameters.
struct RenderedRequests: Sendable {
    let url: String
    let method: String
    let query: [PageRequest.QueryItem]
    let headers: [HTTPHeader]
    let authQuery: PageRequest.QueryItem?
    let body: Data?
    let maxAge: FeedDuration?

    /// The request for `page`: the feed's URL with its parameters and the page's, or the page's
    /// link as given (it carries its own query), plus the API key when it goes in the query.
    func fetchRequest(for page: PageRequest) -> FetchRequest {
        var target: String
        var items: [PageRequest.QueryItem]
        if let link = page.link {
            target = link
            items = page.query
        } else {
            target = url
            items = query + page.query
        }
        if let authQuery, !Self.query(of: target, contains: authQuery.name) { items.append(authQuery) }
        target = URLQuery.appending(items.map { ($0.name, $0.value) }, to: target)
        return FetchRequest(url: target, method: method, headers: headers, body: body, maxAge: maxAge)
    }

    private static func query(of url: String, contains name: String) -> Bool {
        guard let start = url.firstIndex(of: "?") else { return false }
        let encoded = URLQuery.encode(name)
        return url[url.index(after: start)...].split(separator: "&").contains {
            $0 == encoded || $0.hasPrefix(encoded + "=")
        }
    }
}

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
        case .oauth2(let credentials)?: credentials.secrets
        }
    }

    static func basicCredentials(_ username: String, _ password: String) -> String {
        Data("\(username):\(password)".utf8).base64EncodedString()
    }

    /// `{{cursor}}` stands for the page cursor: the feed pages by cursor and has no
    /// `incremental:` block (whose cursor `{{cursor}}` is otherwise).
    var cursorIsPageCursor = false

    /// The page values (`{{page}}`, `{{offset}}`, `{{limit}}`, `{{page_cursor}}`, and
    /// `{{cursor}}` when it is the page cursor) the feed's url, params, headers and body hold.
    var pageValues: Set<String> {
        var names = url.variables
        for param in params { names.formUnion(param.value.variables) }
        for header in headers { names.formUnion(header.value.variables) }
        if let body { names.formUnion(body.variables) }
        let cursorHeld =
            url.holdsCursor || params.contains { $0.value.holdsCursor } || headers.contains { $0.value.holdsCursor }
            || body?.holdsCursor == true
        if cursorIsPageCursor, cursorHeld { names.insert("page_cursor") }
        return names.filter { !$0.hasPrefix(TemplatedString.parentPrefix) }
    }

    /// The requests of one pass, with every date template evaluated at `now` (so all pages of a
    /// pass ask for the same dates), and the incremental cursor's values when it has one.
    ///
    /// - Parameter window: the date window the requests read (`incremental: {window: ...}`):
    ///   its start is then what `sent` holds, and its end goes in `end_param` and
    ///   `{{window.end}}`.
    /// - Parameter session: the pass's OAuth2 session, for `oauth2_*` auth: every rendering of
    ///   one pass (one per date window) sends through the same one.
    func rendered(
        now: Date, cursor: IncrementalCursor? = nil, sending sent: String? = nil, window: DateWindow? = nil,
        session: OAuth2Session? = nil
    ) -> RenderedRequests {
        var query: [PageRequest.QueryItem] = []
        var windowValues: [String: String] = [:]
        if let cursor {
            if let window { windowValues = cursor.values(of: window) }
            if let param = cursor.param, let sent { query.append(.init(name: param, value: sent)) }
            if let endParam = cursor.endParam, let end = windowValues["window.end"] ?? cursor.end?.render(now: now) {
                query.append(.init(name: endParam, value: end))
            }
        }
        var headers: [HTTPHeader] = []
        var authQuery: PageRequest.QueryItem?
        switch auth {
        case nil: break
        case .bearer(let token)?: headers.append(HTTPHeader("Authorization", "Bearer \(token)"))
        case .apiKey(let header?, _, let value)?: headers.append(HTTPHeader(header, value))
        case .apiKey(nil, let name?, let value)?: authQuery = .init(name: name, value: value)
        case .apiKey(nil, nil, _)?: break
        case .basic(let username, let password)?:
            headers.append(HTTPHeader("Authorization", "Basic \(Self.basicCredentials(username, password))"))
        case .oauth2?: break  // the pass's OAuth2Session adds the token as it sends each request
        }
        return RenderedRequests(
            plan: self, now: now, sent: sent, cursorQuery: query, authHeaders: headers, authQuery: authQuery,
            placesPageValues: !pageValues.subtracting(IncrementalCursor.windowValueNames).isEmpty,
            windowValues: windowValues, session: session)
    }
}

/// A feed's requests for one pass, ready to be combined with each page's values.
struct RenderedRequests: Sendable {
    let plan: RequestPlan
    /// The pass's start, at which date templates are evaluated.
    let now: Date
    /// The incremental cursor sent, if any.
    let sent: String?
    /// The incremental cursor's parameters (`param`, `end_param`).
    let cursorQuery: [PageRequest.QueryItem]
    let authHeaders: [HTTPHeader]
    let authQuery: PageRequest.QueryItem?
    /// The feed's templates place the page values themselves: the paginator's own query
    /// parameters are not added.
    let placesPageValues: Bool
    /// `{{window.start}}` and `{{window.end}}` of the date window the requests read, if any.
    var windowValues: [String: String] = [:]
    /// Sends the requests with an OAuth2 access token, for `oauth2_*` auth (set for each pass).
    var session: OAuth2Session?

    /// Performs `request` for `pass`, through the OAuth2 session when there is one.
    func send(_ request: FetchRequest, through pass: FeedPass) async throws -> FetchResponse {
        guard let session else { return try await pass.fetch(request) }
        return try await session.fetch(request)
    }

    /// The request for `page`: the feed's URL with its parameters and the page's, or the page's
    /// link as given (it carries its own query), plus the API key when it goes in the query.
    /// Every template is rendered with the page's `values` (``Paginator/values(for:number:)``).
    ///
    /// - Throws: ``PathSegmentChange`` when values would make a segment of the URL's path `.` or
    ///   `..` (or a parent's value an empty one): the request is not made.
    func fetchRequest(
        for page: PageRequest, values pageValues: [String: String] = [:]
    ) throws(PathSegmentChange) -> FetchRequest {
        let values = windowValues.isEmpty ? pageValues : pageValues.merging(windowValues) { page, _ in page }
        let cursor = plan.cursorIsPageCursor ? page.cursor : sent
        /// A template that is one value alone, which the page does not have, is left out.
        func absent(_ template: TemplatedString) -> Bool {
            guard let name = template.onlyValue else { return false }
            return (name == "cursor" ? cursor : values[name]) == nil
        }
        var target: String
        var items: [PageRequest.QueryItem]
        if let link = page.link {
            target = link
            items = page.query
        } else {
            let encodedCursor = URLQuery.encode(cursor ?? "")
            let encoded = values.mapValues(URLQuery.encode)
            if let change = plan.url.pathSegmentChange(
                now: now, cursor: encodedCursor, values: encoded,
                notEmpty: { $0.hasPrefix(TemplatedString.parentPrefix) })
            {
                throw change
            }
            target = plan.url.render(now: now, cursor: encodedCursor, values: encoded)
            items =
                plan.params.filter { !absent($0.value) }.map {
                    PageRequest.QueryItem(
                        name: $0.name, value: $0.value.render(now: now, cursor: cursor, values: values))
                } + cursorQuery + (placesPageValues ? [] : page.query)
        }
        if let authQuery, !Self.query(of: target, contains: authQuery.name) { items.append(authQuery) }
        target = URLQuery.appending(items.map { ($0.name, $0.value) }, to: target)
        var headers = plan.headers.filter { !absent($0.value) }.map {
            HTTPHeader($0.name, $0.value.render(now: now, cursor: cursor, values: values))
        }
        headers += authHeaders
        var body: Data?
        if let template = plan.body {
            body = plan.bodyFormat.encode(template, now: now, cursor: cursor, values: values)
            if !headers.contains(where: { $0.name.lowercased() == "content-type" }) {
                headers.append(HTTPHeader("Content-Type", plan.bodyFormat.contentType))
            }
        }
        return FetchRequest(url: target, method: plan.method, headers: headers, body: body, maxAge: plan.maxAge)
    }

    /// Whether the query of `url` names the parameter `name`.
    static func query(of url: String, contains name: String) -> Bool {
        guard let start = url.firstIndex(of: "?") else { return false }
        let encoded = URLQuery.encode(name)
        return url[url.index(after: start)...].split(separator: "&").contains {
            $0 == encoded || $0.hasPrefix(encoded + "=")
        }
    }
}

import FeedKit
import Foundation

/// The declarative adapter: any JSON API described in feeds.yaml, with no Swift code.
///
/// ```yaml
/// - name: items
///   adapter: json
///   url: https://api.example.com/items
///   auth: { type: bearer, token: "${API_TOKEN}" }
///   pagination: { type: offset, limit: 100, total_path: $.total, parallel: 4 }
///   records: $.items
///   entity: item
///   key: id
///   fields:
///     id: int
///     name: { type: string, transform: [trim] }
///     price: { path: cost.amount, type: decimal }
///     tags: { type: list, of: string }      # child table item__tags
/// ```
///
/// A pass walks the pages, maps each page's records as soon as it arrives and writes them in
/// page batches. With `parallel: N` and a total known from the first page, N pages are fetched
/// and mapped at once, and committed in page order.
///
/// In `merge` and `append` mode, a page the server answers with 304 Not Modified (or that is
/// fresh within `max_age`) is not mapped again: its records are counted as unchanged and their
/// rows, `_last_seen` included, stay as they are. This only happens while the field mapping is
/// the one that wrote them (a fingerprint of it is kept in `_state`); `replace` always maps
/// every page, since rows a pass does not deliver are deleted. Such a page is not even parsed:
/// the pass that read it kept its record count and pagination facts (``PageSummary``), so the
/// cached body is not read from the store at all.
public struct JSONAdapter: FeedAdapter {
    public static let description = AdapterDescription(
        name: "json",
        summary: "Any JSON API, declared in YAML: requests, auth, pagination, records and typed fields.",
        options: [
            OptionHelp("url", "string", "the API endpoint: http(s) URL, file:// URL or path"),
            OptionHelp("method", "string", "GET or POST", default: "GET"),
            OptionHelp(
                "params", "mapping", "query parameters; values may hold {{today-7d|yyyy-MM-dd}} templates",
                default: "none"),
            OptionHelp("headers", "mapping", "request headers; values may hold templates and ${VAR}", default: "none"),
            OptionHelp("body", "mapping", "the body of a POST, written in YAML", default: "none"),
            OptionHelp(
                "body_format", "string", "json, form (URL-encoded mapping) or raw (a string sent as it is)",
                default: "json"),
            OptionHelp(
                "auth", "mapping",
                "{type: bearer, token} | {type: api_key, header|query, value} | {type: basic, username, password} | {type: oauth2_client_credentials | oauth2_refresh_token, token_url, client_id, client_secret, refresh_token, scope, audience, client_auth: body|basic, params}",
                default: "none"),
            OptionHelp(
                "pagination", "mapping",
                "type: none | offset | page | cursor | next_url | link_header, with max_pages, parallel, has_more_path, allow_incomplete and (offset) advance: records | limit; cursor_header or next_header read the cursor or next URL from a response header; {{page}} {{offset}} {{limit}} {{cursor}} in url, params, headers or body",
                default: "none"),
            OptionHelp(
                "format", "string or mapping",
                "json, xml, or csv; {type: csv, delimiter, quote, header, encoding} for a CSV dialect", default: "json"),
            OptionHelp(
                "records", "path",
                "where the records are: $.data.items, or $ for a top-level list; XML: Envelope/Cube/Cube/Cube",
                default: "$"),
            OptionHelp("entity", "string", "the table the records go to"),
            OptionHelp("key", "string or list", "the field (or fields) identifying a record"),
            OptionHelp("write", "string", "merge, replace or append", default: "merge"),
            OptionHelp(
                "extra", "string",
                "ignore undeclared members, keep them in an _extra JSON column, or make them typed columns (columns); {keep: true, except: [password, internal.notes]} leaves members out",
                default: "ignore"
            ),
            OptionHelp(
                "fields", "mapping",
                "columns: name: type, or name: {type, path, default, required, transform, multiply, divide, format, currency, of, fields, as, role, true, false, map, null_values, from_string, const, concat, separator}"
            ),
            OptionHelp(
                "max_age", "duration", "use cached responses without a request within this age", default: "none"),
            OptionHelp(
                "incremental", "mapping",
                "read only what changed: {cursor_path, param, start, lag, end, end_param, order: asc|desc, format, window, windows_per_pass, window_end: exclusive|inclusive}; or {{cursor}} (and {{window.start}}, {{window.end}}) in url, params, headers or body",
                default: "none"),
            OptionHelp(
                "filter", "string or list",
                "conditions a record must meet to be stored: FIELD=VALUE, !=, <, <=, >, >=, ~ (contains); values may hold {{today-30d|yyyy-MM-dd}}",
                default: "none"),
            OptionHelp(
                "delete_when", "mapping or string",
                "soft deletes: {path, equals} on the record as received, or conditions on mapped fields like filter; such a record deletes its row, leaving a tombstone",
                default: "none"),
            OptionHelp(
                "entities", "list",
                "further entities from the same responses: [{records, when: {path, equals}, entity, key, fields, extra}]; with url ({{parent.FIELD}}), from a request per record the pass writes, with carry, parallel, on_not_found",
                default: "none"),
            OptionHelp(
                "for_each", "mapping",
                "one walk of the requests per row of a parent entity, {{parent.FIELD}} in url, params, headers or body: {entity, carry: {member: parent_field}, where, parallel, incremental, on_not_found: reject|note}",
                default: "none"),
            OptionHelp(
                "search", "string or list",
                "text fields of a full-text index, for ?q= in serve and export --search: [title, description]",
                default: "none"),
            OptionHelp(
                "empty_statuses", "list",
                "failure statuses of the feed's own requests that mean no records, such as [404]; the pass notes each",
                default: "none"),
            OptionHelp(
                "error_path", "path", "a member whose presence means the request failed (its value is the message)",
                default: "none"),
            OptionHelp(
                "error_when", "mapping", "{path, equals}: a member whose value says the request failed",
                default: "none"),
            OptionHelp(
                "null_records", "string",
                "what a records path whose value is null means: fail (the pass fails, nothing changes) or empty (no records)",
                default: "fail"),
        ],
        entities: [])

    /// The `_state` key of the mapping fingerprint.
    static let mappingStateKey = "json.mapping"

    /// Part of the mapping fingerprint, raised when the same options map values differently, so
    /// that the next pass maps every page again instead of keeping rows mapped the old way.
    /// 2: decimals keep the decimals they are written with (`12.50`, no longer `12.5`).
    /// 3: timestamps keep fractions of a second to the microsecond (no longer rounded to the
    /// millisecond), and ISO 8601 date-times with a space for `T` or no zone are read.
    static let mappingVersion = 3

    let requests: RequestPlan
    /// The feed's `url` as written, whose origin its mirrored images' credentials are for.
    let feedURL: String
    let paginator: Paginator
    /// Where each page says what follows it.
    let pageFacts: PageFactReader
    let records: RecordLocator
    let mapper: RecordMapper
    let filter: RecordFilter
    /// `delete_when:`, the records that delete their row.
    let deleteRule: DeleteRule?
    let mode: WriteMode
    let cursor: IncrementalCursor?
    /// The further entities of `entities:`, read from the same responses.
    let sides: [SideEntity]
    /// `extra: columns`: the entity is declared at the end of each pass, with the columns found.
    let autoColumns: AutoColumns?
    /// A digest of everything that decides how a response becomes rows.
    let fingerprint: String
    /// `for_each:`, when the requests are made once per parent row.
    let follower: ParentFollower?
    /// The entities of `entities:` with a `url`, requested for each record the pass writes.
    let children: [ChildEndpoint]
    /// `empty_statuses:`, the statuses of the feed's own requests that mean "no records".
    let emptyStatuses: Set<Int>
    /// `error_path:` and `error_when:`, how a response says that it failed.
    let failureRule: ResponseFailureRule?
    /// `null_records: empty`: a `records` path whose value is `null` holds no records.
    let nullRecordsAreEmpty: Bool

    /// Checks every option, so that all problems are reported at once.
    ///
    /// - Throws: ``OptionError/List`` with each problem and the option it is at.
    public init(options: Options, feed: FeedSetup) throws(OptionError.List) {
        var errors = OptionError.List()
        let (method, bodyFormat) = Self.checkRequestOptions(options, errors: &errors)
        let mode = Self.checkWriteMode(options, errors: &errors)
        let (keepExtra, autoColumns) = Self.checkExtra(options, errors: &errors)
        let (format, compiled, records) = Self.compileRecords(options, keepExtra: keepExtra, errors: &errors)
        let paging = errors.check { () throws(OptionError) in
            try Self.paging(options.pagination ?? PaginationSpec(kind: .none))
        }
        let filter = compiled.flatMap { compiled in
            errors.check { () throws(OptionError.List) in
                try RecordFilter(options.filter?.values ?? [], schema: compiled.schema)
            }
        }
        let deleteRule = Self.checkDeleteWhen(options, mode: mode, schema: compiled?.schema, errors: &errors)
        let cursor = Self.checkIncremental(options, mode: mode, schema: compiled?.schema, errors: &errors)
        let (sides, children) = Self.sideEntities(options, format: format, errors: &errors)
        let follower = Self.checkForEach(options, mode: mode, errors: &errors)
        Self.checkNullRecords(options, errors: &errors)
        if autoColumns { Self.checkAutoColumnsConflicts(options, errors: &errors) }
        let emptyStatuses = Self.emptyStatuses(options, errors: &errors)
        let failureRule = ResponseFailureRule(options, errors: &errors)
        try errors.throwIfAny()
        guard let mode, let records, let compiled, let paging, let filter else { throw errors }
        let requests = try Self.requestPlan(
            options, method: method, bodyFormat: bodyFormat, paginator: paging.paginator, forEach: follower != nil,
            windowed: cursor?.window != nil)
        self.requests = requests
        feedURL = options.url
        self.mode = mode
        self.records = records
        mapper = compiled.mapper
        self.autoColumns =
            autoColumns
            ? AutoColumns(
                schema: compiled.schema, mode: mode, discardsNew: feed.schemaContract.newColumns == .discard) : nil
        self.filter = filter
        self.deleteRule = deleteRule
        paginator = paging.paginator
        pageFacts = paging.facts
        self.cursor = cursor
        self.sides = sides
        self.children = children
        self.follower = follower
        self.emptyStatuses = emptyStatuses
        self.failureRule = failureRule
        fingerprint = Self.fingerprint(of: options)
        nullRecordsAreEmpty = options.nullRecords == "empty"
    }

    /// The problems of `method`, `body`, `body_format`, `url`, `headers` and an api key's
    /// `header`; the method (upper-cased) and the body's format.
    private static func checkRequestOptions(_ options: Options, errors: inout OptionError.List)
        -> (method: String, bodyFormat: BodyFormat?)
    {
        let method = (options.method ?? "GET").uppercased()
        if method != "GET" && method != "POST" {
            errors.append(OptionError("method must be GET or POST, not '\(options.method ?? "")'", at: ["method"]))
        } else if options.body != nil, method != "POST" {
            errors.append(OptionError("a body needs method: POST", at: ["body"]))
        }
        let bodyFormat = errors.check { () throws(OptionError) in
            try BodyFormat.check(options.body, format: options.bodyFormat)
        }
        if options.url.isEmpty { errors.append(OptionError("url must not be empty", at: ["url"])) }
        for (name, _) in options.headers?.entries ?? [] where !Self.isToken(name) {
            errors.append(OptionError("'\(name)' is not a valid header name", at: ["headers", name]))
        }
        if case .apiKey(let header?, _, _)? = options.auth, !Self.isToken(header) {
            errors.append(OptionError("'\(header)' is not a valid header name", at: ["auth", "header"]))
        }
        return (method, bodyFormat)
    }

    /// The checked `write:` (merge when absent).
    private static func checkWriteMode(_ options: Options, errors: inout OptionError.List) -> WriteMode? {
        let mode = WriteMode(rawValue: options.write ?? "merge")
        if mode == nil {
            errors.append(
                OptionError("write must be merge, replace or append, not '\(options.write ?? "")'", at: ["write"]))
        }
        return mode
    }

    /// The checked `extra:`: whether the mapper keeps undeclared members, and whether the pass
    /// makes them columns.
    private static func checkExtra(_ options: Options, errors: inout OptionError.List)
        -> (keepExtra: Bool, autoColumns: Bool)
    {
        switch options.extra?.mode ?? "ignore" {
        case "ignore": return (false, false)
        case "keep": return (true, false)
        case "columns":
            // The mapper keeps the undeclared members as for `keep`; the pass makes them columns.
            return (true, true)
        case let other:
            errors.append(OptionError("extra must be ignore, keep or columns, not '\(other)'", at: ["extra"]))
            return (false, false)
        }
    }

    /// The responses' format, the compiled `fields:` and where the records are.
    private static func compileRecords(_ options: Options, keepExtra: Bool, errors: inout OptionError.List)
        -> (format: ResponseFormat?, compiled: FieldCompiler.Output?, records: RecordLocator?)
    {
        let format = errors.check { () throws(OptionError) in try ResponseFormat(options.format) }
        let compiled = errors.check { () throws(OptionError.List) in
            try FieldCompiler.compile(
                entity: options.entity, fields: options.fields, key: options.key.fields, keepExtra: keepExtra,
                format: format ?? .json, search: options.search?.fields ?? [], extra: options.extra)
        }
        let records = format.flatMap { format in
            errors.check { () throws(OptionError) in
                try RecordLocator(format, records: options.records, ancestorFields: compiled?.ancestorFields ?? [])
            }
        }
        return (format, compiled, records)
    }

    /// The problem of a `null_records:` other than fail or empty.
    private static func checkNullRecords(_ options: Options, errors: inout OptionError.List) {
        if let nullRecords = options.nullRecords, nullRecords != "fail", nullRecords != "empty" {
            errors.append(
                OptionError("null_records must be fail or empty, not '\(nullRecords)'", at: ["null_records"]))
        }
    }

    /// extra: columns holds the records until the walk ends, which deletions and the cursor of
    /// each date window would have to wait for too.
    private static func checkAutoColumnsConflicts(_ options: Options, errors: inout OptionError.List) {
        if options.deleteWhen != nil {
            errors.append(OptionError("delete_when cannot be combined with extra: columns", at: ["delete_when"]))
        }
        if options.incremental?.window != nil {
            errors.append(OptionError("window cannot be combined with extra: columns", at: ["incremental", "window"]))
        }
    }

    /// The feed's requests, once every option is known to be valid, and the problems of the
    /// page values they hold.
    private static func requestPlan(
        _ options: Options, method: String, bodyFormat: BodyFormat?, paginator: Paginator, forEach: Bool,
        windowed: Bool
    ) throws(OptionError.List) -> RequestPlan {
        var requests = RequestPlan(
            url: Self.urlTemplate(options.url), method: method,
            params: options.params?.entries.map { (name: $0.key, value: $0.value) } ?? [],
            headers: options.headers?.entries.map { (name: $0.key, value: $0.value) } ?? [],
            body: options.body, bodyFormat: bodyFormat ?? .json, auth: options.auth, maxAge: options.maxAge)
        requests.cursorIsPageCursor = options.incremental == nil && paginator.hasCursor
        try Self.checkPageValues(requests, paginator: paginator, forEach: forEach, windowed: windowed)
        return requests
    }

    /// The compiled `delete_when:`, and its problems: soft deletes need rows kept by key, so
    /// not `write: append`, whose rows are versions.
    private static func checkDeleteWhen(
        _ options: Options, mode: WriteMode?, schema: EntitySchema?, errors: inout OptionError.List
    ) -> DeleteRule? {
        guard let spec = options.deleteWhen else { return nil }
        if mode == .append {
            errors.append(
                OptionError(
                    "delete_when needs write: merge or replace: append keeps every version of a record, which a deletion would erase",
                    at: ["delete_when"]))
        }
        guard let schema else { return nil }
        return errors.check { () throws(OptionError.List) in try DeleteRule(spec, schema: schema) }
    }

    /// The incremental cursor, and the problems of `incremental:` and of `{{cursor}}` in `url`
    /// and `body`.
    private static func checkIncremental(
        _ options: Options, mode: WriteMode?, schema: EntitySchema?, errors: inout OptionError.List
    ) -> IncrementalCursor? {
        let inURL = urlTemplate(options.url).holdsCursor
        let inBody = options.body?.holdsCursor ?? false
        let inParams = options.params?.entries.filter { $0.value.holdsCursor }.map(\.key) ?? []
        let inHeaders = options.headers?.entries.filter { $0.value.holdsCursor }.map(\.key) ?? []
        guard let spec = options.incremental else {
            // Without the block, `{{cursor}}` is the page cursor of cursor pagination.
            if options.pagination?.kind == .cursor { return nil }
            let places =
                (inURL ? [["url"]] : []) + (inBody ? [["body"]] : []) + inParams.map { ["params", $0] }
                + inHeaders.map { ["headers", $0] }
            for place in places {
                errors.append(OptionError("{{cursor}} needs an incremental: block or cursor pagination", at: place))
            }
            return nil
        }
        if mode == .replace {
            errors.append(
                OptionError(
                    "write: replace cannot be incremental: replace deletes the rows a pass does not deliver, and an incremental pass delivers only new and changed records; use merge or append",
                    at: ["incremental"]))
        }
        let placed = urlTemplate(options.url).variables.union(options.body?.variables ?? [])
            .union((options.params?.entries ?? []).flatMap(\.value.variables))
            .union((options.headers?.entries ?? []).flatMap(\.value.variables))
        let windowPlaced = spec.window != nil && !IncrementalCursor.windowValueNames.isDisjoint(with: placed)
        if spec.window != nil, spec.endParam == nil, !placed.contains("window.end") {
            // Without its end, each window would ask for everything since its start.
            errors.append(
                OptionError(
                    "window needs end_param (the query parameter each window's end is sent in), or {{window.end}} in url, params, headers or body",
                    at: ["incremental", "window"]))
        }
        if spec.param == nil, !inURL, !inBody, inParams.isEmpty, inHeaders.isEmpty, !windowPlaced {
            errors.append(
                OptionError(
                    "incremental needs param (the query parameter the cursor is sent in), or {{cursor}} in url, params, headers or body",
                    at: ["incremental"]))
        }
        if spec.order == "desc", (options.pagination?.parallel ?? 1) > 1 {
            errors.append(
                OptionError(
                    "order: desc stops paging at the first page past the cursor, so pages cannot be fetched in parallel",
                    at: ["incremental", "order"]))
        }
        guard let schema else { return nil }
        return errors.check { () throws(OptionError.List) in
            try IncrementalCursor(spec, fields: options.fields, schema: schema)
        }
    }

    /// Every page value the requests hold must be one the pagination gives; parent values need
    /// `for_each:`, and window values a `window` in the `incremental:` block.
    private static func checkPageValues(
        _ requests: RequestPlan, paginator: Paginator, forEach: Bool, windowed: Bool
    )
        throws(OptionError.List)
    {
        var errors = OptionError.List()
        let places: [(at: [String], names: Set<String>)] =
            [(["url"], requests.url.variables)] + requests.params.map { (["params", $0.name], $0.value.variables) }
            + requests.headers.map { (["headers", $0.name], $0.value.variables) }
            + [(["body"], requests.body?.variables ?? [])]
        for (at, names) in places {
            for name in names.sorted() {
                if name.hasPrefix(TemplatedString.parentPrefix) {
                    if !forEach { errors.append(OptionError("{{\(name)}} needs a for_each: block", at: at)) }
                    continue
                }
                if IncrementalCursor.windowValueNames.contains(name) {
                    if !windowed {
                        errors.append(OptionError("{{\(name)}} needs window in the incremental: block", at: at))
                    }
                    continue
                }
                guard let problem = paginator.unavailableValue(name) else { continue }
                errors.append(OptionError(problem, at: at))
            }
        }
        try errors.throwIfAny()
    }

    /// The checked `for_each:`: it cannot go with the feed's own `incremental:` cursor or with
    /// `extra: columns`, and an incremental one (which follows some parents only) not with
    /// `write: replace`.
    private static func checkForEach(_ options: Options, mode: WriteMode?, errors: inout OptionError.List)
        -> ParentFollower?
    {
        guard let spec = options.forEach else { return nil }
        if options.extra?.mode == "columns" {
            errors.append(
                OptionError(
                    "for_each cannot be combined with extra: columns (the found columns are declared once, after a single walk); declare the child's fields",
                    at: ["for_each"]))
        }
        if options.incremental != nil {
            errors.append(
                OptionError(
                    "for_each cannot be combined with incremental: (one cursor cannot stand for every parent); use for_each's incremental: true to follow only changed parents",
                    at: ["for_each"]))
        }
        if spec.incremental == true, mode == .replace {
            errors.append(
                OptionError(
                    "an incremental for_each follows only changed parents, and write: replace would delete the rows of the others; use merge or append",
                    at: ["for_each", "incremental"]))
        }
        let fields = Set(options.fields.entries.map(\.key))
        return errors.check { () throws(OptionError.List) in try ParentFollower(spec, fields: fields) }
    }

    /// The feed's entity (unless `extra: columns` declares it during the pass) and those of
    /// `entities:`.
    public var entities: [EntityBinding] {
        (autoColumns == nil ? [EntityBinding(mapper.schema, mode: mode)] : [])
            + sides.map { EntityBinding($0.mapper.schema, mode: mode) }
            + children.map { EntityBinding($0.side.mapper.schema, mode: mode) }
    }

    /// With `extra: columns`, the feed's entity: its declared fields (the columns found in the
    /// records are known only during the pass).
    public var entitiesDeclaredDuringPass: [EntityBinding] {
        guard let autoColumns else { return [] }
        var schema = autoColumns.schema
        schema.columns.removeLast()  // `_extra`, which the pass replaces by the columns found
        return [EntityBinding(schema, mode: mode)]
    }

    /// The parent entity of `for_each:`, which the feeds writing it fill before this one's pass.
    public var parentEntities: [ParentEntity] {
        follower.map { [ParentEntity($0.entity, option: ["for_each", "entity"])] } ?? []
    }

    /// The entities of `entities:`, each checked, with names distinct from the feed's entity.
    /// Those with a `url` are child endpoints, requested for each record of the feed's entity.
    private static func sideEntities(_ options: Options, format: ResponseFormat?, errors: inout OptionError.List)
        -> (sides: [SideEntity], children: [ChildEndpoint])
    {
        guard let specs = options.entities else { return ([], []) }
        if let format, format != .json {
            errors.append(OptionError("entities: reads JSON responses only", at: ["entities"]))
            return ([], [])
        }
        var names = [options.entity.lowercased()]
        var sides: [SideEntity] = []
        var children: [ChildEndpoint] = []
        let parentFields = Set(options.fields.entries.map(\.key))
        for (index, spec) in specs.enumerated() {
            if names.contains(spec.entity.lowercased()) {
                errors.append(
                    OptionError(
                        "entity '\(spec.entity)' is already written by this feed; give each entity its own name",
                        at: ["entities", String(index), "entity"]))
            }
            names.append(spec.entity.lowercased())
            guard let side = errors.check({ () throws(OptionError.List) in try SideEntity(spec, index: index) })
            else { continue }
            guard let url = spec.url else {
                for (key, given) in [("carry", spec.carry != nil), ("parallel", spec.parallel != nil)]
                    + [("on_not_found", spec.onNotFound != nil)] where given
                {
                    errors.append(
                        OptionError("\(key) needs url (a child endpoint)", at: ["entities", String(index), key]))
                }
                sides.append(side)
                continue
            }
            let child = errors.check { () throws(OptionError.List) in
                try ChildEndpoint(spec, url: url, side: side, index: index, parentFields: parentFields)
            }
            if let child { children.append(child) }
        }
        return (sides, children)
    }

    public var secrets: [String] { requests.secrets }

    public func run(_ pass: FeedPass) async throws {
        var stored: IncrementalCursor.Mark?
        if let cursor { stored = try await pass.state(FeedPass.cursorStateKey).flatMap(cursor.mark(stored:)) }
        let filter = filter.rendered(now: pass.startedAt)
        // A filter whose window moved maps every page again, so records entering it are stored.
        let fingerprint = filter.conditions.isEmpty ? fingerprint : fingerprint + "-" + Self.digest(filter.text)
        let storedFingerprint = try await pass.state(Self.mappingStateKey)
        // Pages of a feed with entities: are mapped every pass: a summary counts one entity only;
        // so are those of a feed with delete_when, whose summaries do not tell deletions apart.
        let skipsUnchanged =
            mode != .replace && sides.isEmpty && deleteRule == nil && storedFingerprint == fingerprint
        let summaries = mode != .replace ? try await PageSummary.load(pass) : [:]
        var pages = PageProcessor(
            requests: requests.rendered(now: pass.startedAt), paginator: paginator, pageFacts: pageFacts,
            records: records, mapper: mapper, filter: filter, skipsUnchanged: skipsUnchanged, summaries: summaries,
            keepsSummaries: mode != .replace, feed: pass.feed)
        pages.cursor = cursor
        pages.sides = sides
        pages.children = children
        pages.deleteRule = deleteRule?.rendered(now: pass.startedAt)
        pages.emptyStatuses = emptyStatuses
        pages.failureRule = failureRule
        pages.nullRecordsAreEmpty = nullRecordsAreEmpty
        if case .oauth2(let credentials)? = requests.auth {
            pages.requests.session = OAuth2Session(credentials, pass: pass)
        }
        var totals = WalkTotals()
        if let follower {
            totals.add(try await follower.follow(pass: pass, processor: pages, mode: mode))
        } else if let cursor, cursor.window != nil {
            try await runWindows(cursor, from: stored, pages: pages, totals: &totals, in: pass)
        } else {
            let sent = cursor?.sentValue(stored: stored, now: pass.startedAt)
            pages.requests = requests.rendered(
                now: pass.startedAt, cursor: cursor, sending: sent, session: pages.requests.session)
            let stopsBefore = cursor?.descending == true ? sent.flatMap { cursor?.mark(sent: $0) } : nil
            var walk = PageWalk(pass: pass, processor: pages, mode: mode, stopsBefore: stopsBefore)
            walk.holdsRecords = autoColumns != nil
            try await walk.run()
            try await autoColumns?.finish(held: walk.held, unchanged: walk.heldUnchanged, pass: pass)
            totals.add(walk)
            if let cursor {
                try await advance(cursor, from: stored, to: walk.newest, sent: sent, in: pass)
            }
        }
        // Summaries of pages this pass did not walk (the feed's URLs changed) are dropped; an
        // incremental for_each leaves the parents it did not follow (and their pages) alone.
        if follower?.incremental != true {
            for key in summaries.keys where !totals.walkedKeys.contains(key) {
                try await PageSummary.remove(forKey: key, in: pass)
            }
        }
        if let note = totals.ends.note { pass.note(note) }
        if totals.filteredOut > 0 {
            pass.note("\(totals.filteredOut) record(s) filtered out by filter")
        }
        if totals.deletions > 0 {
            pass.note("\(totals.deletions) record(s) marked deleted by delete_when")
        }
        if totals.skippedPages > 0 {
            pass.note(
                "\(totals.skippedPages) page(s) unchanged since the last pass; their \(totals.skippedRecords) record(s) were not mapped again"
            )
        }
        if storedFingerprint != fingerprint {
            try await pass.setState(Self.mappingStateKey, fingerprint)
        }
    }

    /// The `url` option as a template; one that does not parse was already reported where the
    /// config is loaded (every `{{ }}` is checked there), so it is kept as written.
    private static func urlTemplate(_ url: String) -> TemplatedString {
        (try? TemplatedString(parsing: url)) ?? TemplatedString(literal: url)
    }

    /// Stores the greatest cursor value written, when it is past the stored one, and says in
    /// the report what was sent.
    private func advance(
        _ cursor: IncrementalCursor, from stored: IncrementalCursor.Mark?, to newest: IncrementalCursor.Mark?,
        sent: String?, in pass: FeedPass
    ) async throws {
        let sentText = sent.map { "\(cursor.param ?? "{{cursor}}")=\($0)" } ?? "no cursor (first pass, no start)"
        if let newest, stored.map({ newest > $0 }) ?? true {
            try await pass.setState(FeedPass.cursorStateKey, newest.text)
            pass.note("incremental: sent \(sentText); cursor now \(newest.text)")
        } else {
            pass.note("incremental: sent \(sentText); cursor unchanged")
        }
    }

    /// An HTTP header name (RFC 9110 token).
    static func isToken(_ name: String) -> Bool {
        !name.isEmpty
            && name.unicodeScalars.allSatisfy {
                $0.isASCII
                    && ($0.properties.isAlphabetic || ("0"..."9").contains($0)
                        || "!#$%&'*+-.^_`|~".unicodeScalars.contains($0))
            }
    }

    /// A stable digest of the options that decide how a response becomes rows and what it says
    /// about the next pages.
    static func fingerprint(of options: Options) -> String {
        var text = FingerprintText()
        text.add("version", mappingVersion)
        text.add("records", options.records ?? "$")
        text.add("entity", options.entity)
        text.add("key", options.key.fields)
        text.add("extra", options.extra?.mode ?? "")
        if let except = options.extra?.except { text.add("extra_except", except) }
        if let pagination = options.pagination {
            pagination.addFingerprint(to: &text)
        } else {
            text.add("pagination", nil as String?)
        }
        text.add("fields", options.fields)
        // Added only when present, so that feeds without it keep their fingerprints.
        if let deleteWhen = options.deleteWhen { text.add("delete_when", deleteWhen.fingerprintText) }
        for side in options.entities ?? [] {
            text.add("side_records", side.records)
            text.add("side_when", side.when.map { [$0.path, $0.equals] })
            text.add("side_entity", side.entity)
            text.add("side_key", side.key.fields)
            text.add("side_extra", side.extra)
            text.add("side_fields", side.fields)
        }
        if let format = options.format {
            format.addFingerprint(to: &text)
        }
        if let nullRecords = options.nullRecords { text.add("null_records", nullRecords) }
        if let carry = options.forEach?.carry {
            text.add("for_each_carry", carry.entries.flatMap { [$0.key, $0.value] })
        }
        return digest(text.text)
    }

    /// A 64-bit FNV-1a digest of `text`, in hex.
    private static func digest(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        return String(hash, radix: 16)
    }
}

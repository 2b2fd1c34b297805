import FeedKit
import Foundation

/// What one page gave: its records (mapped, or only counted when the page is unchanged), its
/// rejects and what it says about the next pages.
struct PageOutcome: Sendable {
    var records: [EntityRecord] = []
    var rejects: [Reject] = []
    /// The keys of the records `delete_when:` picked, whose rows are deleted.
    var deletes: [String] = []
    /// Records of a page that was not mapped because it is unchanged since the last pass.
    var unchangedRecords = 0
    /// Records the feed's `filter:` left out.
    var filteredOut = 0
    var skipped = false
    var facts: PageFacts
    /// The URL the page was fetched from (secrets included), for relative next links.
    var url: String
    /// The response the page's records came from, numbered by the page's place in the walk.
    var source: RecordSource?
    /// The page's `_http_cache` key, and its summary when it is new or changed.
    var cacheKey: String?
    var newSummary: PageSummary?
    /// The greatest and least incremental cursor values among the page's records.
    var newest: IncrementalCursor.Mark?
    var oldest: IncrementalCursor.Mark?
    /// The status of `empty_statuses:` the page was answered with, which gave no records.
    var emptyStatus: Int?
}

/// Fetches, parses and maps one page. Holds no state, so several pages can be processed at once.
struct PageProcessor: Sendable {
    var requests: RenderedRequests
    let paginator: Paginator
    /// Where each page says what follows it.
    let pageFacts: PageFactReader
    let records: RecordLocator
    let mapper: RecordMapper
    let filter: RenderedRecordFilter
    /// Whether pages answered with 304 (or fresh in the cache) are only counted, not mapped.
    let skipsUnchanged: Bool
    /// What earlier passes read from their pages, by cache key; see ``PageSummary``.
    let summaries: [String: PageSummary]
    /// Whether pages' summaries are kept (not in `replace` mode, which maps every page).
    let keepsSummaries: Bool
    let feed: String
    /// The feed's incremental cursor, whose values each page's records are measured by.
    var cursor: IncrementalCursor? = nil
    /// The further entities of `entities:`, mapped from each page beside the records.
    var sides: [SideEntity] = []
    /// The parent row whose pages these are (`for_each:`): its values fill `{{parent.FIELD}}`,
    /// its carried fields join each record, and a 404 throws ``ParentNotFound``.
    var parent: ParentValues? = nil
    /// Entities requested for each record a page writes (`entities:` with a `url`).
    var children: [ChildEndpoint] = []
    /// `delete_when:`, which sets deleted records apart from the others.
    var deleteRule: RenderedDeleteRule? = nil
    /// `empty_statuses:`: a page answered with one of them gives no records.
    var emptyStatuses: Set<Int> = []
    /// `error_path:`/`error_when:`: a response saying it failed fails the pass.
    var failureRule: ResponseFailureRule? = nil
    /// Whether a `records` path whose value is `null` means no records (`null_records: empty`)
    /// rather than a failed pass.
    var nullRecordsAreEmpty = false

    /// - Parameter number: the page's 1-based place in the walk, stored with its rejects.
    func process(_ page: PageRequest, number: Int, pass: FeedPass) async throws -> PageOutcome {
        var values = paginator.values(for: page, number: number)
        if let parent { values.merge(parent.templateValues) { page, _ in page } }
        var request = try requests.fetchRequest(for: page, values: values)
        request.acceptsNotFound = parent != nil
        request.acceptedStatuses = emptyStatuses
        let cacheKey = keepsSummaries && request.cacheable ? request.cacheKey : nil
        let known = skipsUnchanged ? cacheKey.flatMap { summaries[$0] } : nil
        request.omitsUnchangedBody = known != nil
        var response = try await requests.send(request, through: pass)
        if parent != nil, response.status == 404 { throw ParentNotFound(url: response.url) }
        if emptyStatuses.contains(response.status) {
            return PageOutcome(facts: PageFacts(recordCount: 0), url: request.url, emptyStatus: response.status)
        }
        if let known, known.describes(response) {
            let facts = known.facts(unsealedBy: pass.redactor)
            let filteredOut = known.filteredOut ?? 0
            return PageOutcome(
                unchangedRecords: facts.recordCount - filteredOut, filteredOut: filteredOut, skipped: true,
                facts: facts,
                url: request.url, cacheKey: cacheKey)
        }
        if response.bodyIsOmitted {
            // Unchanged, but not the page the summary describes: read it after all.
            request.omitsUnchangedBody = false
            response = try await requests.send(request, through: pass)
        }
        var outcome = try read(response, url: request.url)
        outcome.cacheKey = cacheKey
        outcome.source = RecordSource(url: response.url, page: number)
        if cacheKey != nil,
            let summary = PageSummary(
                response, facts: outcome.facts, filteredOut: outcome.filteredOut, redactor: pass.redactor),
            summary != known
        {
            outcome.newSummary = summary
        }
        return outcome
    }

    /// Parses and maps a response.
    ///
    /// When it can, it maps each record as the parser reads it and lets the parsed record go
    /// (``streamedRecords(of:)``), so a large page is in memory as its body and its mapped
    /// records, not also as the whole tree of parsed values.
    ///
    /// - Throws: ``PayloadError`` when the body is not JSON, the records are not where `records`
    ///   says, or a pagination value has the wrong type.
    func read(_ response: FetchResponse, url: String) throws -> PageOutcome {
        let skipping = skipsUnchanged && response.isUnchangedFromCache
        let document: JSONValue
        let recordCount: Int
        var mapped: RenderedDeleteRule.Split
        let streamed = skipping ? nil : try streamedRecords(of: response)
        if let streamed { try checkFailure(streamed.document, response: response) }
        if let streamed, let count = streamed.visited {
            (document, recordCount, mapped) = (streamed.document, count, streamed.mapped)
        } else {
            let parsed = try streamed?.document ?? records.document(of: response, feed: feed, countingOnly: skipping)
            if streamed == nil { try checkFailure(parsed, response: response) }
            var items = try recordItems(in: parsed, url: response.url)
            if skipping {
                let facts = try self.facts(of: parsed, recordCount: items.count, response: response)
                return PageOutcome(unchangedRecords: items.count, skipped: true, facts: facts, url: url)
            }
            if let parent, !parent.carry.isEmpty { items = items.map(parent.carried(into:)) }
            if let deleteRule {
                mapped = deleteRule.split(items, mapper: mapper, basePath: records.description, cursor: cursor)
            } else {
                let all = mapper.map(items, basePath: records.description)
                mapped = RenderedDeleteRule.Split(records: all.records, rejects: all.rejects)
            }
            (document, recordCount) = (parsed, items.count)
        }
        let facts = try self.facts(of: document, recordCount: recordCount, response: response)
        let kept = filter.conditions.isEmpty ? mapped.records : mapped.records.filter(filter.keeps)
        var outcome = PageOutcome(
            records: kept, rejects: mapped.rejects, deletes: mapped.deletes,
            filteredOut: mapped.records.count - kept.count, facts: facts, url: url)
        for side in sides {
            let mapped = side.map(document)
            outcome.records += mapped.records
            outcome.rejects += mapped.rejects
        }
        if let cursor {
            for mark in kept.compactMap(cursor.mark(of:)) + mapped.deletedMarks {
                if outcome.newest.map({ mark > $0 }) ?? true { outcome.newest = mark }
                if outcome.oldest.map({ mark < $0 }) ?? true { outcome.oldest = mark }
            }
        }
        return outcome
    }

    /// A JSON page parsed and mapped a record at a time: the document without its records, how
    /// many records it had (`nil` when `records` led to no list: the document then holds what
    /// it found there) and what they mapped to. `nil` when the page must be read whole: a
    /// format other than JSON, a `records` path with an index, `entities:` or `delete_when:`
    /// (which read the records after they are mapped) or pagination read inside the records.
    private func streamedRecords(of response: FetchResponse) throws(PayloadError)
        -> (document: JSONValue, visited: Int?, mapped: RenderedDeleteRule.Split)?
    {
        guard case .json(let path) = records, let names = path.memberNames, sides.isEmpty, deleteRule == nil,
            !pageFacts.readsInside(names)
        else { return nil }
        var mapped = RenderedDeleteRule.Split()
        let basePath = records.description
        let carry = parent.flatMap { $0.carry.isEmpty ? nil : $0 }
        let parsed = try response.json(feed: feed, visitingElementsAt: names) { index, item in
            mapper.map(
                carry?.carried(into: item) ?? item, at: index, basePath: basePath, into: &mapped.records,
                rejects: &mapped.rejects)
        }
        return (parsed.document, parsed.visited, mapped)
    }

    /// Throws when the response says that the request failed (`error_path`, `error_when`).
    private func checkFailure(_ document: JSONValue, response: FetchResponse) throws(ResponseFailureError) {
        guard let failure = failureRule?.failure(in: document) else { return }
        throw ResponseFailureError(feed: feed, url: response.url, path: failure.path, message: failure.message)
    }

    /// The records of a parsed page: a list, one object, or none for `null` with
    /// `null_records: empty`.
    private func recordItems(in document: JSONValue, url: String) throws(PayloadError) -> [JSONValue] {
        switch records.records(in: document) {
        case .array(let list)?: return list
        case .object(let object)?: return [.object(object)]
        case .null?:
            guard nullRecordsAreEmpty else {
                throw PayloadError(
                    feed: feed, url: url, path: records.description,
                    message:
                        "the records are null, as an API's error answer often has them, so nothing was changed (null_records: empty reads null as no records); the response has \(Self.outline(document))"
                )
            }
            return []
        case nil:
            throw PayloadError(
                feed: feed, url: url, path: records.description,
                message: "no records here (check 'records'); the response has \(Self.outline(document))")
        case let other?:
            throw PayloadError(
                feed: feed, url: url, path: records.description,
                message: "expected a list of records, found \(other.kindName)")
        }
    }

    /// What a page says about the next pages.
    private func facts(of document: JSONValue, recordCount: Int, response: FetchResponse) throws(PayloadError)
        -> PageFacts
    {
        do {
            return try pageFacts.facts(of: document, recordCount: recordCount, headers: response.headers)
        } catch {
            throw PayloadError(feed: feed, url: response.url, path: error.path, message: error.message)
        }
    }

    /// The top-level members of a document, to help fix a wrong `records` path.
    private static func outline(_ document: JSONValue) -> String {
        guard case .object(let object) = document else { return document.kindName + " at the top" }
        let names = object.keys.prefix(8).joined(separator: ", ")
        return object.keys.isEmpty ? "an empty object" : "members \(names)\(object.keys.count > 8 ? ", ..." : "")"
    }
}

/// Walks a feed's pages: one after another, or several at once once the total is known, and
/// commits each page's records in page order.
struct PageWalk {
    let pass: FeedPass
    let processor: PageProcessor
    let mode: WriteMode
    private(set) var skippedPages = 0
    private(set) var skippedRecords = 0
    /// Records the feed's `filter:` left out, on every page walked.
    private(set) var filteredOut = 0
    /// Records `delete_when:` picked, on every page walked.
    private(set) var deletions = 0
    /// The cache keys of the pages walked, whose summaries are still current.
    private(set) var walkedKeys: Set<String> = []
    /// The greatest incremental cursor value among the records written.
    private(set) var newest: IncrementalCursor.Mark?
    /// With `order: desc`, the cursor sent: paging stops after a page with an older record.
    private let stopsBefore: IncrementalCursor.Mark?
    private var fetched = 0
    /// The pages this walk fetched.
    var pages: Int { fetched }
    /// Why the walk ended, once it has (``WalkEnd``); `nil` while it goes on or when it failed.
    private(set) var end: WalkEnd?
    /// The pages asked for, their records and the total they gave.
    private var checks = PageChecks()
    /// The walk stopped before its natural end (`max_pages`, a repeat, an incomplete walk).
    private var stoppedEarly = false
    /// Whether the feed's own records are held (``held``) instead of written, with the count of
    /// those of unchanged pages (``heldUnchanged``): `extra: columns` writes them at the end.
    var holdsRecords = false
    private(set) var held: [EntityRecord] = []
    private(set) var heldUnchanged = 0

    init(pass: FeedPass, processor: PageProcessor, mode: WriteMode, stopsBefore: IncrementalCursor.Mark? = nil) {
        self.pass = pass
        self.processor = processor
        self.mode = mode
        self.stopsBefore = stopsBefore
    }

    private var paginator: Paginator { processor.paginator }

    mutating func run() async throws {
        var next: PageRequest? = paginator.first
        while let page = next {
            guard fetched < paginator.maxPages else {
                try stopAtCap()
                return
            }
            checks.request(page)
            let outcome = try await processor.process(page, number: fetched + 1, pass: pass)
            fetched += 1
            try await commit(outcome)
            if stoppedEarly { return }
            let step = paginator.step(after: page, facts: outcome.facts, url: outcome.url)
            if let stopsBefore, let oldest = outcome.oldest, oldest < stopsBefore {
                if case .end(let reason) = step {
                    end = reason
                } else {
                    pass.note("page \(fetched) reached records older than the cursor (order: desc); stopped there")
                    end = .olderThanCursor
                }
                return
            }
            if fetched == 1, paginator.parallel > 1, let rest = paginator.remaining(after: page, facts: outcome.facts) {
                try await runParallel(rest)
                if !stoppedEarly { end = .totalReached }
                try checkTotal()
                return
            }
            switch step {
            case .next(let candidate):
                next = candidate
                if checks.repeats(candidate) {
                    try incomplete("page \(fetched + 1) would repeat an earlier page (the same link or cursor)")
                    return
                }
            case .end(let reason):
                next = nil
                end = reason
            case .stuck(let reason):
                try incomplete("page \(fetched) does not say it is the last: \(reason)")
                return
            }
        }
        try checkTotal()
    }

    /// A walk that cannot go on to the end: a failed pass (nothing changes), or a note when the
    /// feed allows an incomplete pass.
    private mutating func incomplete(_ reason: String) throws {
        stoppedEarly = true
        end = nil
        guard paginator.allowsIncomplete else {
            throw PaginationIncompleteError(
                feed: pass.feed,
                message:
                    "\(reason); the pass would be incomplete, so nothing was changed (allow_incomplete: true in pagination accepts such a pass)"
            )
        }
        pass.note("\(reason); stopped there (allow_incomplete)")
        end = .incomplete
    }

    /// Fewer records than the total a page gave: an incomplete pass.
    private mutating func checkTotal() throws {
        guard !stoppedEarly, processor.pageFacts.totalPath != nil, let shortfall = checks.shortfall else { return }
        try incomplete("the pages held \(shortfall.delivered) of the \(shortfall.total) records that total_path gives")
    }

    /// A page whose records (by their keys) are those of an earlier page: the API ignored the
    /// page's parameters or repeats its last page.
    private mutating func checkRepeat(_ outcome: PageOutcome) throws {
        guard !outcome.skipped, let earlier = checks.earlierPage(holding: outcome.records, number: fetched) else {
            return
        }
        try incomplete(
            "page \(fetched) repeats page \(earlier) (the same \(outcome.records.count) record(s)): the API ignores the page's parameters or repeats its last page"
        )
    }

    /// A page with records after a short one, where the walk steps by the page size (`advance:
    /// limit`): the API sends fewer records than `limit` asks for, so records were skipped.
    private mutating func checkShortPage(_ outcome: PageOutcome) throws {
        guard !stoppedEarly, let size = paginator.skipsAfterShortPages,
            let earlier = checks.shortPage(before: outcome.facts, number: fetched, size: size)
        else { return }
        try incomplete(
            "page \(fetched) holds records after page \(earlier.number), which held \(earlier.records) of the \(size) records limit asks for: the API sends fewer records than limit, so advance: limit skipped some (advance: records steps by the records received)"
        )
    }

    /// Fetches `pages` `parallel` at a time, committing them in order.
    private mutating func runParallel(_ all: [PageRequest]) async throws {
        let pages = Array(all.prefix(max(0, paginator.maxPages - fetched)))
        let overCap = pages.count < all.count
        // Fail before fetching anything more when the cap would make a replace pass incomplete.
        if overCap, mode == .replace { try stopAtCap() }
        let width = paginator.parallel
        let first = fetched + 1  // the number of pages[0]
        let processor = processor
        let pass = pass
        try await withThrowingTaskGroup(of: (Int, PageOutcome).self) { group in
            var started = 0
            var committed = 0
            var ready: [Int: PageOutcome] = [:]
            while started < pages.count, started < committed + width {
                let index = started
                group.addTask { (index, try await processor.process(pages[index], number: first + index, pass: pass)) }
                started += 1
            }
            while let (index, outcome) = try await group.next() {
                ready[index] = outcome
                while let outcome = ready.removeValue(forKey: committed) {
                    fetched += 1
                    try await commit(outcome)
                    committed += 1
                }
                while started < pages.count, started < committed + width {
                    let index = started
                    group.addTask {
                        (index, try await processor.process(pages[index], number: first + index, pass: pass))
                    }
                    started += 1
                }
            }
        }
        if overCap { try stopAtCap() }
    }

    private mutating func commit(_ outcome: PageOutcome) async throws {
        if let status = outcome.emptyStatus {
            pass.note("page \(fetched) answered \(status), which empty_statuses reads as no records")
        }
        checks.count(outcome.facts)
        try checkRepeat(outcome)
        try checkShortPage(outcome)
        if stoppedEarly { return }
        var records = outcome.records
        if holdsRecords {
            let entity = processor.mapper.schema.name
            held += records.filter { $0.entity == entity }
            records.removeAll { $0.entity == entity }
        }
        try await pass.write(RecordBatch(records: records, rejects: outcome.rejects, source: outcome.source))
        // After the page's records: no key is in both (``RenderedDeleteRule/split``).
        try await pass.delete(entity: processor.mapper.schema.name, keys: outcome.deletes)
        deletions += outcome.deletes.count
        let schema = processor.mapper.schema
        for child in processor.children {
            let parents = outcome.records.filter { $0.entity == schema.name }
            try await child.follow(parents, schema: schema, requests: processor.requests, pass: pass)
        }
        filteredOut += outcome.filteredOut
        if let mark = outcome.newest, newest.map({ mark > $0 }) ?? true { newest = mark }
        if let key = outcome.cacheKey {
            walkedKeys.insert(key)
            try await outcome.newSummary?.store(forKey: key, in: pass)
        }
        if outcome.skipped {
            skippedPages += 1
            skippedRecords += outcome.unchangedRecords
            if holdsRecords {
                heldUnchanged += outcome.unchangedRecords
            } else {
                try await pass.countUnchanged(outcome.unchangedRecords, entity: processor.mapper.schema.name)
            }
        }
    }

    /// More pages remain past `max_pages`: fine for merge and append (noted), an error for
    /// replace, where an incomplete pass would delete the rows of the pages not fetched.
    private mutating func stopAtCap() throws {
        stoppedEarly = true
        end = .maxPages
        let message = "stopped at max_pages (\(paginator.maxPages)) with more pages to fetch"
        if mode == .replace {
            throw PaginationLimitError(
                feed: pass.feed,
                message:
                    "\(message); in replace mode an incomplete pass would delete rows, so nothing was changed (raise max_pages)"
            )
        }
        pass.note(message)
    }
}

/// A walk that stopped before the end: a page repeating an earlier one, fewer records than
/// the total, a page with records after a short one (`advance: limit`), or a page that does not
/// say it is the last yet gives no way on (``PageStep/stuck(_:)``).
struct PaginationIncompleteError: Error, CustomStringConvertible {
    var feed: String
    var message: String
    var description: String { "feed '\(feed)': \(message)" }
}

/// A `replace` feed whose pages go past `max_pages`.
struct PaginationLimitError: Error, CustomStringConvertible {
    var feed: String
    var message: String
    var description: String { "feed '\(feed)': \(message)" }
}

import FeedKit

/// An entity of `entities:` with a `url`: its records come from a request made once for each
/// record of the feed's own entity that a pass writes (the parents of the same pass), with
/// the parent's fields as `{{parent.FIELD}}` and its `carry:` members set on each child record.
/// Unchanged pages (not mapped again) have no parents to follow, so with the feed's
/// `incremental:` only the parents new or changed since the cursor are followed.
struct ChildEndpoint: Sendable {
    let side: SideEntity
    let url: TemplatedString
    let carry: [(member: String, field: String)]
    let parallel: Int
    let notesNotFound: Bool

    /// Checks the `url`, `carry`, `parallel` and `on_not_found` of `spec`, the `index`th of
    /// `entities:`, against the parent entity's fields.
    init(_ spec: JSONAdapter.EntitySpec, url: String, side: SideEntity, index: Int, parentFields: Set<String>)
        throws(OptionError.List)
    {
        let at = ["entities", String(index)]
        var errors = OptionError.List()
        self.side = side
        do {
            self.url = try TemplatedString(parsing: url)
        } catch {
            errors.append(OptionError(error.description, at: at + ["url"]))
            self.url = TemplatedString(literal: url)
        }
        for name in self.url.variables.sorted() {
            let field = name.hasPrefix(TemplatedString.parentPrefix) ? String(name.dropFirst(7)) : nil
            guard let field, parentFields.contains(field) else {
                errors.append(
                    OptionError(
                        "{{\(name)}} is not a value here: a child url takes {{parent.FIELD}}, FIELD a field of the feed's entity",
                        at: at + ["url"]))
                continue
            }
        }
        carry = spec.carry?.entries.map { (member: $0.key, field: $0.value) } ?? []
        let childFields = Set(spec.fields.entries.map(\.key))
        for (member, field) in carry {
            if !childFields.contains(member) {
                errors.append(OptionError("'\(member)' is not a field of the entity", at: at + ["carry", member]))
            }
            if !parentFields.contains(field) {
                errors.append(
                    OptionError("'\(field)' is not a field of the feed's entity", at: at + ["carry", member]))
            }
        }
        (parallel, notesNotFound) = ParentFollower.check(
            parallel: spec.parallel, onNotFound: spec.onNotFound, at: at, errors: &errors)
        try errors.throwIfAny()
    }

    /// Requests the children of `parents` (records of `schema`), `parallel` at a time, and
    /// writes them; a parent whose request answers 404 is rejected or noted.
    func follow(
        _ parents: [EntityRecord], schema: EntitySchema, requests: RenderedRequests, pass: FeedPass
    ) async throws {
        guard !parents.isEmpty else { return }
        var plan = RequestPlan(
            url: url, method: "GET", params: [], headers: requests.plan.headers, body: nil, auth: requests.plan.auth,
            maxAge: requests.plan.maxAge)
        plan.cursorIsPageCursor = false
        var childRequests = plan.rendered(now: requests.now)
        childRequests.session = requests.session
        let rendered = childRequests
        let batches = try await withThrowingTaskGroup(of: (Int, RecordBatch).self) { group in
            var started = 0
            var batches: [Int: RecordBatch] = [:]
            func start() {
                let index = started
                started += 1
                group.addTask { (index, try await fetch(parents[index], schema: schema, rendered, pass: pass)) }
            }
            while started < min(parallel, parents.count) { start() }
            while let (index, batch) = try await group.next() {
                batches[index] = batch
                if started < parents.count { start() }
            }
            return batches
        }
        // Written in parent order, so rows and rejects do not depend on timing.
        for index in parents.indices {
            guard let batch = batches[index] else { continue }
            try await pass.write(batch)
        }
    }

    private func fetch(
        _ parent: EntityRecord, schema: EntitySchema, _ requests: RenderedRequests, pass: FeedPass
    ) async throws -> RecordBatch {
        var row: [String: FieldValue] = [:]
        for (column, value) in zip(schema.columns, parent.values) { row[column.name] = value }
        let values = ParentValues(row, carry: carry)
        var request: FetchRequest
        do {
            request = try requests.fetchRequest(for: PageRequest(), values: values.templateValues)
        } catch {
            return RecordBatch(
                rejects: [
                    Reject(
                        entity: side.mapper.schema.name,
                        reason: "\(schema.name) \(parent.key) was not requested: \(error)", path: "$",
                        raw: parent.key)
                ])
        }
        request.acceptsNotFound = true
        let response = try await requests.send(request, through: pass)
        if response.status == 404 {
            let what = "\(schema.name) \(parent.key) (\(response.url))"
            if notesNotFound {
                return RecordBatch(notes: ["\(side.mapper.schema.name): \(what) answered 404 Not Found"])
            }
            return RecordBatch(
                rejects: [
                    Reject(
                        entity: side.mapper.schema.name,
                        reason: "the request for \(what) answered 404 Not Found (on_not_found: note makes it a note)",
                        path: "$", raw: parent.key)
                ], source: RecordSource(response))
        }
        let document = try pass.parseJSON(response)
        let mapped = side.map(document, carrying: values)
        return RecordBatch(records: mapped.records, rejects: mapped.rejects, source: RecordSource(response))
    }
}

import FeedKit

/// A feed's `for_each:`, checked: walks the feed's pages once for each parent row, with the
/// row's fields as `{{parent.FIELD}}` and the carried members added to each child record.
struct ParentFollower: Sendable {
    let entity: String
    let carry: [(member: String, field: String)]
    let filters: [String]
    let parallel: Int
    let incremental: Bool
    let notesNotFound: Bool

    /// The `_state` key of the greatest parent `_run` an incremental pass followed.
    static let runStateKey = "for_each.run"

    /// - Parameter fields: the feed's field names, which each carried member must be.
    init(_ spec: JSONAdapter.ForEachSpec, fields: Set<String>) throws(OptionError.List) {
        var errors = OptionError.List()
        let at = ["for_each"]
        if spec.entity.isEmpty { errors.append(OptionError("entity must not be empty", at: at + ["entity"])) }
        entity = spec.entity
        carry = spec.carry?.entries.map { (member: $0.key, field: $0.value) } ?? []
        for (member, _) in carry where !fields.contains(member) {
            errors.append(
                OptionError(
                    "'\(member)' is not a field of the feed: declare it in fields (the type the parent's value is stored as)",
                    at: at + ["carry", member]))
        }
        filters = spec.filter?.values ?? []
        incremental = spec.incremental ?? false
        (parallel, notesNotFound) = Self.check(
            parallel: spec.parallel, onNotFound: spec.onNotFound, at: at, errors: &errors)
        try errors.throwIfAny()
    }

    /// `parallel` (1 to 16, default 1) and `on_not_found` (`reject`, the default, or `note`,
    /// which is `true`), shared with ``ChildEndpoint``.
    static func check(parallel: Int?, onNotFound: String?, at: [String], errors: inout OptionError.List)
        -> (parallel: Int, notesNotFound: Bool)
    {
        let width = parallel ?? 1
        if !(1...16).contains(width) {
            errors.append(OptionError("parallel must be between 1 and 16", at: at + ["parallel"]))
        }
        switch onNotFound ?? "reject" {
        case "reject": return (width, false)
        case "note": return (width, true)
        case let other:
            errors.append(OptionError("on_not_found must be reject or note, not '\(other)'", at: at + ["on_not_found"]))
            return (width, false)
        }
    }

    /// What following every parent gave, summed.
    struct Outcome: Sendable {
        var followed = 0
        var notFound: [String] = []
        /// The parents not requested, each with the reason (a value that would change the URL's path).
        var refused: [(key: String, reason: String)] = []
        var filteredOut = 0
        var skippedPages = 0
        var skippedRecords = 0
        var walkedKeys: Set<String> = []
        /// Why the parents' walks ended.
        var ends = WalkEnds()
    }

    /// Walks `processor`'s pages for each parent row, `parallel` parents at a time.
    func follow(pass: FeedPass, processor: PageProcessor, mode: WriteMode) async throws -> Outcome {
        let since = incremental ? try await pass.state(Self.runStateKey).flatMap { Int64($0) } : nil
        let conditions = filters + (since.map { ["_run>\($0)"] } ?? [])
        let parents = try await pass.storedRows(of: entity, where: conditions, order: ["_key"])
        let newest = try await pass.storedRows(of: entity, order: ["-_run"], limit: 1).first?["_run"]
        var outcome = Outcome()
        try await withThrowingTaskGroup(of: (Int, ParentWalk).self) { group in
            var started = 0
            var results: [Int: ParentWalk] = [:]
            func start() {
                let index = started
                let row = parents[index]
                started += 1
                group.addTask { (index, try await walk(row, pass: pass, processor: processor, mode: mode)) }
            }
            while started < min(parallel, parents.count) { start() }
            while let (index, result) = try await group.next() {
                results[index] = result
                if started < parents.count { start() }
            }
            // Summed in parent order, so notes and rejects do not depend on timing.
            for index in parents.indices {
                guard let result = results[index] else { continue }
                outcome.followed += 1
                outcome.filteredOut += result.filteredOut
                outcome.skippedPages += result.skippedPages
                outcome.skippedRecords += result.skippedRecords
                outcome.walkedKeys.formUnion(result.walkedKeys)
                outcome.ends.add(result.ends)
                if let url = result.notFound { outcome.notFound.append("\(parents[index].keyText) (\(url))") }
                if let reason = result.refused { outcome.refused.append((parents[index].keyText, reason)) }
            }
        }
        try await report(outcome, of: parents, pass: pass, processor: processor)
        if incremental, case .integer(let run)? = newest, since.map({ run > $0 }) ?? true {
            try await pass.setState(Self.runStateKey, String(run))
        }
        if newest == nil {
            pass.note("for_each: the store holds no \(entity) rows yet; run the feed that writes them first")
        } else {
            let scope = since.map { "written since run \($0)" } ?? "rows"
            pass.note("for_each: followed \(outcome.followed) \(entity) \(scope)")
        }
        return outcome
    }

    /// Rejects the parents not requested, and rejects (or notes) those whose requests answered 404.
    private func report(
        _ outcome: Outcome, of parents: [[String: FieldValue]], pass: FeedPass, processor: PageProcessor
    ) async throws {
        if !outcome.refused.isEmpty {
            let rejects = outcome.refused.map { parent in
                Reject(
                    entity: processor.mapper.schema.name,
                    reason: "\(entity) \(parent.key) was not requested: \(parent.reason)", path: "$", raw: parent.key)
            }
            try await pass.write(RecordBatch(rejects: rejects))
        }
        guard !outcome.notFound.isEmpty else { return }
        if notesNotFound {
            pass.note(
                "for_each: \(outcome.notFound.count) \(entity) answered 404 Not Found: \(outcome.notFound.joined(separator: ", "))"
            )
            return
        }
        let rejects = outcome.notFound.map { parent in
            Reject(
                entity: processor.mapper.schema.name,
                reason:
                    "the request for \(entity) \(parent) answered 404 Not Found (on_not_found: note makes it a note)",
                path: "$", raw: parent)
        }
        try await pass.write(RecordBatch(rejects: rejects))
    }

    /// One parent's walk.
    struct ParentWalk: Sendable {
        var filteredOut = 0
        var skippedPages = 0
        var skippedRecords = 0
        var walkedKeys: Set<String> = []
        /// The URL that answered 404, if one did.
        var notFound: String?
        var ends = WalkEnds()
        /// Why the parent was not requested, if it was not: a value of it would change the URL's path.
        var refused: String?
    }

    private func walk(
        _ row: [String: FieldValue], pass: FeedPass, processor: PageProcessor, mode: WriteMode
    ) async throws -> ParentWalk {
        var processor = processor
        processor.parent = ParentValues(row, carry: carry)
        var walk = PageWalk(pass: pass, processor: processor, mode: mode)
        do {
            try await walk.run()
        } catch let missing as ParentNotFound {
            return ParentWalk(notFound: missing.url)
        } catch let change as PathSegmentChange
            where change.names.contains(where: { $0.hasPrefix(TemplatedString.parentPrefix) })
        {
            return ParentWalk(refused: change.description)
        }
        var ends = WalkEnds()
        ends.add(walk)
        return ParentWalk(
            filteredOut: walk.filteredOut, skippedPages: walk.skippedPages, skippedRecords: walk.skippedRecords,
            walkedKeys: walk.walkedKeys, ends: ends)
    }
}

/// One parent row, as the values of a child's templates (`parent.FIELD`) and as JSON members
/// to add to its records.
struct ParentValues: Sendable {
    let row: [String: FieldValue]
    /// The members to add to each record, and the parent's field each takes its value from.
    let carry: [(member: String, field: String)]

    /// `parent.FIELD` for each of the row's fields (system columns left out).
    var templateValues: [String: String] {
        var values: [String: String] = [:]
        for (name, value) in row where !name.hasPrefix("_") {
            values[TemplatedString.parentPrefix + name] = Self.text(value)
        }
        return values
    }

    init(_ row: [String: FieldValue], carry: [(member: String, field: String)]) {
        self.row = row
        self.carry = carry
    }

    /// `item` with the carried members set from the parent's fields (an object only).
    func carried(into item: JSONValue) -> JSONValue {
        guard !carry.isEmpty, case .object(var object) = item else { return item }
        for (member, field) in carry {
            let value = Self.json(row[field] ?? .null)
            object.members.removeAll { $0.key == member }
            object.members.append((key: member, value: value))
        }
        return .object(object)
    }

    static func text(_ value: FieldValue) -> String {
        switch value {
        case .null: ""
        case .integer(let number): String(number)
        case .real(let number): String(number)
        case .text(let text): text
        case .bool(let flag): flag ? "true" : "false"
        }
    }

    static func json(_ value: FieldValue) -> JSONValue {
        switch value {
        case .null: .null
        case .integer(let number): .number(String(number))
        case .real(let number): .number(String(number))
        case .text(let text): .string(text)
        case .bool(let flag): .bool(flag)
        }
    }
}

/// A child request answered 404: its parent is rejected or noted, the pass goes on.
struct ParentNotFound: Error {
    var url: String
}

extension [String: FieldValue] {
    /// The row's `_key`, for messages.
    fileprivate var keyText: String { self["_key"].map(ParentValues.text) ?? "?" }
}

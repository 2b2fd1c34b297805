import FeedKit

extension JSONAdapter {
    /// A further entity read from the same responses (`entities:`), such as JSON:API's
    /// `included` people beside its `data` articles.
    ///
    /// ```yaml
    /// entities:
    ///   - records: $.included
    ///     when: { path: type, equals: people }
    ///     entity: person
    ///     key: id
    ///     fields: { id: { type: int, from_string: true }, name: { path: attributes.name, type: string } }
    /// ```
    public struct EntitySpec: Decodable, Sendable {
        /// Where this entity's records are in a response.
        public var records: String
        /// Only the records whose value at `path` is `equals` (JSON:API's `type`).
        public var when: Condition?
        public var entity: String
        public var key: KeySpec
        /// `ignore` (the default) or `keep` (an `_extra` JSON column).
        public var extra: String?
        public var fields: OrderedMapping<FieldSpec>
        /// A child endpoint: this entity's records come from this URL, requested once for each
        /// record of the feed's entity that the pass writes (`{{parent.FIELD}}` its fields),
        /// rather than from the same responses; see ``ChildEndpoint``.
        public var url: String?
        /// With `url`: members set on each record from the parent record's fields.
        public var carry: OrderedMapping<String>?
        /// With `url`: parents whose requests run at once (1 to 16; default 1).
        public var parallel: Int?
        /// With `url`: what a parent whose request answers 404 becomes, `reject` or `note`.
        public var onNotFound: String?

        enum CodingKeys: String, CodingKey {
            case records, when, entity, key, extra, fields, url, carry, parallel
            case onNotFound = "on_not_found"
        }

        /// `{ path: type, equals: people }`: the member's text (a string, a number as written,
        /// `true` or `false`) must be `equals`.
        public struct Condition: Decodable, Sendable {
            public var path: String
            public var equals: String
        }
    }
}

/// An entity of `entities:`, compiled: where its records are, which of them it takes, and how
/// they are mapped.
struct SideEntity: Sendable {
    let records: JSONPath
    let condition: (path: JSONPath, equals: String)?
    let mapper: RecordMapper

    /// Checks `spec`, the `index`th of `entities:`; every problem is reported at its place.
    init(_ spec: JSONAdapter.EntitySpec, index: Int) throws(OptionError.List) {
        let at = ["entities", String(index)]
        var errors = OptionError.List()
        let records = errors.check { () throws(OptionError) in
            try FieldCompiler.parsePath(spec.records, at: at + ["records"])
        }
        let condition = spec.when.flatMap { when in
            errors.check { () throws(OptionError) in
                (try FieldCompiler.parsePath(when.path, at: at + ["when", "path"]), when.equals)
            }
        }
        var keepExtra = false
        switch spec.extra ?? "ignore" {
        case "ignore": break
        case "keep": keepExtra = true
        case let other: errors.append(OptionError("extra must be ignore or keep, not '\(other)'", at: at + ["extra"]))
        }
        var compiled: FieldCompiler.Output?
        do {
            compiled = try FieldCompiler.compile(
                entity: spec.entity, fields: spec.fields, key: spec.key.fields, keepExtra: keepExtra)
        } catch {
            for var problem in error.errors {
                problem.path = at + problem.path
                errors.append(problem)
            }
        }
        try errors.throwIfAny()
        guard let records, let compiled else { throw errors }
        self.records = records
        self.condition = condition
        self.mapper = compiled.mapper
    }

    /// The entity's records in `document`, mapped, and rejects for those that cannot be.
    /// With `parent`, its carried members are set on each record first.
    func map(_ document: JSONValue, carrying parent: ParentValues? = nil) -> (
        records: [EntityRecord], rejects: [Reject]
    ) {
        var items: [JSONValue]
        switch records.lookup(document) {
        case .array(let list)?: items = list
        case .object(let object)?: items = [.object(object)]
        default: items = []
        }
        if let parent, !parent.carry.isEmpty { items = items.map(parent.carried(into:)) }
        guard let condition else { return mapper.map(items, basePath: records.description) }
        // Rejects keep each record's place in the whole list.
        var result: (records: [EntityRecord], rejects: [Reject]) = ([], [])
        for (index, item) in items.enumerated() {
            guard let value = condition.path.lookup(item), ValueConverter.text(of: value) == condition.equals else {
                continue
            }
            let mapped = mapper.map([item], basePath: "\(records.description)[\(index)]")
            result.records += mapped.records
            result.rejects += mapped.rejects.map { reject in
                var reject = reject
                reject.path = reject.path.replacingOccurrences(
                    of: "\(records.description)[\(index)][0]", with: "\(records.description)[\(index)]")
                return reject
            }
        }
        return result
    }
}

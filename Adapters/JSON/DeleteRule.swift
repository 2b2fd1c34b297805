import FeedKit
import Foundation

extension JSONAdapter {
    /// The `delete_when:` option: which records of a response say that a row is gone, such as a
    /// changes feed's soft-deleted records.
    ///
    /// ```yaml
    /// delete_when: { path: deleted, equals: true }   # a member of the record, as received
    /// delete_when: "status=deleted"                   # or conditions on mapped fields (all hold)
    /// ```
    public enum DeleteWhenSpec: Decodable, Sendable {
        /// The record's member at `path` has the text `equals` (a string, a number as written,
        /// `true` or `false`).
        case member(path: String, equals: String)
        /// Conditions on the mapped fields in `filter:`'s grammar, all of which must hold.
        case conditions([String])

        enum CodingKeys: String, CodingKey { case path, equals }

        public init(from decoder: any Decoder) throws {
            if let texts = try? OneOrMany(from: decoder) {
                self = .conditions(texts.values)
                return
            }
            let container = try decoder.container(keyedBy: CodingKeys.self)
            self = .member(
                path: try container.decode(String.self, forKey: .path),
                equals: try container.decode(String.self, forKey: .equals))
        }

        /// The option as text, for the mapping's fingerprint.
        var fingerprintText: [String] {
            switch self {
            case .member(let path, let equals): ["member", path, equals]
            case .conditions(let texts): ["conditions"] + texts
            }
        }
    }
}

/// `delete_when:`, compiled: the test that tells a deleted record from a live one.
///
/// A record the test picks is not stored: its key is handed to ``FeedPass/delete(entity:keys:)``,
/// which deletes the feed's row with that key and leaves a tombstone. The member form reads the
/// record as received, so a deleted record needs only its key fields (changes feeds often send
/// little else); the conditions form maps the record first, so it must map like any other.
struct DeleteRule: Sendable {
    enum Test: Sendable {
        case member(path: JSONPath, equals: String)
        case conditions(RecordFilter)
    }

    let test: Test

    /// Checks `spec` against the feed's fields, at `delete_when`.
    init(_ spec: JSONAdapter.DeleteWhenSpec, schema: EntitySchema) throws(OptionError.List) {
        let at = ["delete_when"]
        var errors = OptionError.List()
        switch spec {
        case .member(let path, let equals):
            let parsed = errors.check { () throws(OptionError) in try FieldCompiler.parsePath(path, at: at + ["path"]) }
            try errors.throwIfAny()
            test = .member(path: parsed ?? .root, equals: equals)
        case .conditions(let texts):
            if texts.isEmpty { errors.append(OptionError("delete_when needs at least one condition", at: at)) }
            do {
                test = .conditions(try RecordFilter(texts, schema: schema))
            } catch {
                // Reported at delete_when.N rather than filter.N.
                for var problem in error.errors {
                    problem.path = at + problem.path.dropFirst()
                    if problem.message.hasPrefix("filter ") {
                        problem.message = "delete_when " + problem.message.dropFirst("filter ".count)
                    }
                    errors.append(problem)
                }
                throw errors
            }
            try errors.throwIfAny()
        }
    }

    /// The rule with its templates rendered at `now` (the pass's `startedAt`).
    func rendered(now: Date) -> RenderedDeleteRule {
        switch test {
        case .member(let path, let equals): RenderedDeleteRule(test: .member(path: path, equals: equals))
        case .conditions(let filter): RenderedDeleteRule(test: .conditions(filter.rendered(now: now)))
        }
    }
}

/// A ``DeleteRule`` ready for one pass.
struct RenderedDeleteRule: Sendable {
    enum Test: Sendable {
        case member(path: JSONPath, equals: String)
        case conditions(RenderedRecordFilter)
    }

    let test: Test

    /// What a page's records come to once the deleted ones are told apart.
    struct Split: Sendable {
        var records: [EntityRecord] = []
        var rejects: [Reject] = []
        /// The keys of the deleted records, each once, in page order.
        var deletes: [String] = []
        /// The cursor values of the deleted records, which count toward the cursor too.
        var deletedMarks: [IncrementalCursor.Mark] = []
    }

    /// Maps `items` (found at `basePath`), setting the deleted ones apart by their keys.
    ///
    /// Within a page the last word on a key wins: a record followed by its deletion is deleted,
    /// a deletion followed by the record again keeps the record.
    func split(
        _ items: [JSONValue], mapper: RecordMapper, basePath: String, cursor: IncrementalCursor?
    ) -> Split {
        enum Event {
            case record(EntityRecord)
            case delete(String)
        }
        var events: [Event] = []
        var split = Split()
        for (index, item) in items.enumerated() {
            do {
                switch test {
                case .member(let path, let equals):
                    if let value = path.lookup(item), ValueConverter.text(of: value) == equals {
                        events.append(.delete(try mapper.key(of: item)))
                        if let cursor, let value = mapper.value(ofColumn: cursor.column, in: item),
                            let mark = cursor.mark(of: value)
                        {
                            split.deletedMarks.append(mark)
                        }
                    } else {
                        events.append(.record(try mapper.record(item)))
                    }
                case .conditions(let filter):
                    let record = try mapper.record(item)
                    if filter.keeps(record) {
                        events.append(.delete(record.key))
                        if let mark = cursor?.mark(of: record) { split.deletedMarks.append(mark) }
                    } else {
                        events.append(.record(record))
                    }
                }
            } catch {
                split.rejects.append(
                    Reject(
                        entity: mapper.schema.name, reason: error.reason, path: "\(basePath)[\(index)]\(error.path)",
                        raw: item.jsonText))
            }
        }
        var lastRecord: [String: Int] = [:]
        var lastDelete: [String: Int] = [:]
        for (index, event) in events.enumerated() {
            switch event {
            case .record(let record): lastRecord[record.key] = index
            case .delete(let key): lastDelete[key] = index
            }
        }
        for (index, event) in events.enumerated() {
            switch event {
            case .record(let record):
                if (lastDelete[record.key] ?? -1) < index { split.records.append(record) }
            case .delete(let key):
                if lastDelete[key] == index, (lastRecord[key] ?? -1) < index { split.deletes.append(key) }
            }
        }
        return split
    }
}

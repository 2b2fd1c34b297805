import FeedKit

extension JSONAdapter {
    /// `extra:`: what becomes of the members of a record that `fields:` does not declare.
    ///
    /// ```yaml
    /// extra: keep                                            # or ignore (the default), columns
    /// extra: { keep: true, except: [password, internal.notes] }
    /// ```
    ///
    /// The mapping form keeps them (`keep: true`, in `_extra`) or makes them columns
    /// (`columns: true`), leaving out the members at the paths of `except`.
    public struct ExtraSpec: Decodable, Sendable, Hashable {
        /// `ignore`, `keep` or `columns`.
        public var mode: String
        /// Paths, relative to the record, of members never kept.
        public var except: [String]?

        enum CodingKeys: String, CodingKey { case keep, columns, except }

        public init(from decoder: any Decoder) throws {
            if let mode = try? decoder.singleValueContainer().decode(String.self) {
                self.mode = mode
                return
            }
            let container = try decoder.container(keyedBy: CodingKeys.self)
            let keep = try container.decodeIfPresent(Bool.self, forKey: .keep) ?? false
            let columns = try container.decodeIfPresent(Bool.self, forKey: .columns) ?? false
            guard keep != columns else {
                throw DecodingError.dataCorruptedError(
                    forKey: .keep, in: container,
                    debugDescription: "extra takes keep: true or columns: true (one of them) beside except")
            }
            mode = keep ? "keep" : "columns"
            except = try container.decodeIfPresent(OneOrMany.self, forKey: .except)?.values
        }
    }
}

extension FieldCompiler {
    /// The checked paths of `extra`'s `except`.
    static func extraExceptions(_ spec: JSONAdapter.ExtraSpec?) throws(OptionError.List) -> [JSONPath] {
        var errors = OptionError.List()
        var paths: [JSONPath] = []
        for (index, text) in (spec?.except ?? []).enumerated() {
            let path = errors.check { () throws(OptionError) in
                try parsePath(text, at: ["extra", "except", String(index)])
            }
            guard let path else { continue }
            guard !path.steps.isEmpty, path.steps.allSatisfy({ if case .key = $0 { true } else { false } }) else {
                errors.append(
                    OptionError(
                        "except takes member names or paths of members (internal.notes), not '\(text)'",
                        at: ["extra", "except", String(index)]))
                continue
            }
            paths.append(path)
        }
        try errors.throwIfAny()
        return paths
    }
}

extension JSONObject {
    /// The object without the members at `paths` (paths of member names).
    func removing(_ paths: [JSONPath]) -> JSONObject {
        paths.reduce(self) { object, path in
            object.removing(path.steps.compactMap { if case .key(let name) = $0 { name } else { nil } }[...])
        }
    }

    /// The object without the member at `keys` (a path of member names), when there is one.
    func removing(_ keys: ArraySlice<String>) -> JSONObject {
        guard let first = keys.first else { return self }
        var copy = self
        if keys.count == 1 {
            copy.members.removeAll { $0.key == first }
            return copy
        }
        for index in copy.members.indices where copy.members[index].key == first {
            if case .object(let inner) = copy.members[index].value {
                copy.members[index].value = .object(inner.removing(keys.dropFirst()))
            }
        }
        return copy
    }
}

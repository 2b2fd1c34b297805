import FeedKit

/// Where a column's value comes from: the member at its path (the usual case), a constant
/// (`const:`), or members joined into one text (`concat:`), as dlt's `map` and Airbyte's
/// `AddFields` add values an API does not send. The value is then converted like any other.
enum ValueSource: Sendable {
    case path
    /// The same value in every record, converted when the feed is loaded.
    case constant(FieldValue)
    /// The texts of the members at these paths, joined by the separator.
    case concat([JSONPath], separator: String)

    /// The joined texts of the members at `parts` in `record`, leaving out those missing or
    /// null; `nil` when all of them are.
    ///
    /// - Throws: ``ConversionFailure`` when a member is a list or an object.
    static func concatenation(_ parts: [JSONPath], _ separator: String, in record: JSONValue)
        throws(ConversionFailure) -> JSONValue?
    {
        var texts: [String] = []
        for path in parts {
            guard let value = path.lookup(record), !value.isNull else { continue }
            guard let text = ValueConverter.text(of: value) else {
                throw ConversionFailure(
                    reason: "concat: \(path.description.dropFirst(2)) is \(value.kindName), not a text or a number")
            }
            texts.append(text)
        }
        return texts.isEmpty ? nil : .string(texts.joined(separator: separator))
    }
}

extension FieldCompiler {
    /// The source of a field's value from its `const`, `concat` and `separator`, checked: a
    /// constant must fit the field's type and stands alone (no `path`, `concat`, `default` or
    /// `required`); `concat` takes no `path`.
    static func source(of spec: JSONAdapter.FieldSpec, converter: ValueConverter, at: [String])
        throws(OptionError) -> ValueSource
    {
        if let text = spec.constant {
            for (key, given) in [
                ("path", spec.path != nil), ("concat", spec.concat != nil), ("default", spec.defaultValue != nil),
                ("required", spec.required != nil),
            ] where given {
                throw OptionError("a const field takes no \(key)", at: at + [key])
            }
            do {
                return .constant(try converter.convert(defaultText: text))
            } catch {
                throw OptionError("const '\(text)' does not fit type \(spec.type): \(error.reason)", at: at + ["const"])
            }
        }
        guard let parts = spec.concat else {
            if spec.separator != nil { throw OptionError("separator needs concat", at: at + ["separator"]) }
            return .path
        }
        if spec.path != nil { throw OptionError("a concat field takes no path", at: at + ["path"]) }
        guard !parts.isEmpty else { throw OptionError("concat needs at least one member", at: at + ["concat"]) }
        var paths: [JSONPath] = []
        for (index, text) in parts.enumerated() {
            paths.append(try parsePath(text, at: at + ["concat", String(index)]))
        }
        return .concat(paths, separator: spec.separator ?? "")
    }

    /// The top-level members a field reads, which `extra: keep` leaves out of `_extra`: none
    /// for a constant, those of `concat`, else the first member of its path.
    static func readMembers(of spec: JSONAdapter.FieldSpec, path: JSONPath?) -> [String] {
        if spec.constant != nil { return [] }
        if let parts = spec.concat { return parts.compactMap { try? JSONPath(parsing: $0).firstKey } }
        return path?.firstKey.map { [$0] } ?? []
    }
}

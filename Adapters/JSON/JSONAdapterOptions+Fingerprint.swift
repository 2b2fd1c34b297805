import FeedKit

extension JSONAdapter {
    /// The text a mapping fingerprint digests: every option that decides how a response becomes
    /// rows, each part written with its length, so no two different option sets give the same
    /// text.
    ///
    /// Written out by hand rather than with `String(describing:)`, whose reflection of nested
    /// options asked the Swift runtime for a dozen protocol conformances at every start, each
    /// a scan of every conformance record in the binary.
    struct FingerprintText {
        private(set) var text = ""

        /// Appends a named part: `name`, and `value` or a mark that it is absent.
        mutating func add(_ name: String, _ value: String?) {
            text += name
            if let value {
                text += "=\(value.utf8.count):\(value)"
            } else {
                text += "-"
            }
            text += ";"
        }

        mutating func add(_ name: String, _ value: Int?) { add(name, value.map { String($0) }) }

        mutating func add(_ name: String, _ value: Bool?) { add(name, value.map { $0 ? "true" : "false" }) }

        mutating func add(_ name: String, _ values: [String]?) {
            add(name, values.map { "\($0.count)[" + $0.map { "\($0.utf8.count):\($0)" }.joined() + "]" })
        }

        /// Appends the fields of a record or of a child list's objects, in their order.
        mutating func add(_ name: String, _ fields: OrderedMapping<FieldSpec>?) {
            guard let fields else { return add(name, nil as String?) }
            add(name, fields.entries.count)
            for (field, spec) in fields.entries {
                add("field", field)
                spec.addFingerprint(to: &self)
            }
        }
    }
}

extension JSONAdapter.PaginationSpec {
    /// Adds every part of the pagination to `fingerprint`.
    func addFingerprint(to fingerprint: inout JSONAdapter.FingerprintText) {
        fingerprint.add("pagination", kind.rawValue)
        fingerprint.add("limit", limit)
        fingerprint.add("limit_param", limitParam)
        fingerprint.add("offset_param", offsetParam)
        fingerprint.add("page_param", pageParam)
        fingerprint.add("start", start)
        fingerprint.add("total_path", totalPath)
        fingerprint.add("total_pages_path", totalPagesPath)
        fingerprint.add("cursor_path", cursorPath)
        fingerprint.add("cursor_param", cursorParam)
        fingerprint.add("next_path", nextPath)
        fingerprint.add("stop_on_short_page", stopOnShortPage)
        fingerprint.add("max_pages", maxPages)
        fingerprint.add("parallel", parallel)
        if let hasMorePath { fingerprint.add("has_more_path", hasMorePath) }
        if let cursorHeader { fingerprint.add("cursor_header", cursorHeader) }
        if let nextHeader { fingerprint.add("next_header", nextHeader) }
        if let advance { fingerprint.add("advance", advance) }
    }
}

extension JSONAdapter.FormatSpec {
    /// Adds the format and its CSV dialect to `fingerprint` (absent for JSON feeds written
    /// before formats existed, whose fingerprint stays as it was).
    func addFingerprint(to fingerprint: inout JSONAdapter.FingerprintText) {
        fingerprint.add("format", type)
        fingerprint.add("delimiter", delimiter)
        fingerprint.add("quote", quote)
        fingerprint.add("header", header)
        fingerprint.add("encoding", encoding)
    }
}

extension JSONAdapter.FieldSpec {
    /// Adds every part of the field, and of its child fields, to `fingerprint`.
    func addFingerprint(to fingerprint: inout JSONAdapter.FingerprintText) {
        fingerprint.add("type", type)
        fingerprint.add("path", path)
        fingerprint.add("default", defaultValue)
        fingerprint.add("required", required)
        fingerprint.add("transform", transform)
        fingerprint.add("multiply", multiply)
        fingerprint.add("divide", divide)
        fingerprint.add("format", format)
        fingerprint.add("currency", currency)
        fingerprint.add("of", of)
        fingerprint.add("fields", fields)
        fingerprint.add("as", storage)
        fingerprint.add("role", role)
        // Added only when set, so that fields without them keep the fingerprint they had.
        if let trueValues { fingerprint.add("true", trueValues) }
        if let falseValues { fingerprint.add("false", falseValues) }
        if let map { fingerprint.add("map", map.entries.flatMap { [$0.key, $0.value] }) }
        if let nullValues { fingerprint.add("null_values", nullValues) }
        if let fromString { fingerprint.add("from_string", fromString) }
        if let media { fingerprint.add("media", media) }
        if let constant { fingerprint.add("const", constant) }
        if let concat { fingerprint.add("concat", concat) }
        if let separator { fingerprint.add("separator", separator) }
    }
}

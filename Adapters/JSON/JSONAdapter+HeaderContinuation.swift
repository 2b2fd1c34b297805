import FeedKit

extension JSONAdapter {
    /// Where a `cursor` or `next_url` walk reads what follows a page: a JSON path of the body
    /// (`cursor_path`, `next_path`) or a response header (`cursor_header`, `next_header`),
    /// exactly one of the two.
    ///
    /// - Throws: ``OptionError`` when neither or both are given, or the header name is not one.
    static func continuation(
        path text: String?, pathKey: String, header: String?, headerKey: String, kind: String, at: [String],
        read: (JSONPath) -> PageFactReader.Continuation, fromHeader: (String) -> PageFactReader.Continuation
    ) throws(OptionError) -> PageFactReader.Continuation {
        switch (text, header) {
        case (let text?, nil):
            return read(try FieldCompiler.parsePath(text, at: at + [pathKey]))
        case (nil, let header?):
            guard isToken(header) else {
                throw OptionError("'\(header)' is not a valid header name", at: at + [headerKey])
            }
            return fromHeader(header.lowercased())
        case (nil, nil):
            throw OptionError("\(kind) pagination needs \(pathKey) or \(headerKey)", at: at)
        case (_?, _?):
            throw OptionError("give either \(pathKey) or \(headerKey), not both", at: at + [headerKey])
        }
    }
}

import Foundation

/// A value of a URL template that would change the shape of the URL's path: alone (or with
/// other values) it makes a whole segment `.` or `..`, which a server or a proxy resolves
/// against the segments before it (`/kids/{{parent.id}}/lines` with `..` asks for `/lines`),
/// or an empty segment (`/kids//lines`, which many servers read as `/kids/lines`).
public struct PathSegmentChange: Error, Sendable, Hashable, CustomStringConvertible {
    /// The names of the values that make the segment (`parent.id`, `cursor`, `page_cursor`).
    public var names: [String]
    /// The segment as it would be sent: `.`, `..` or empty.
    public var segment: String
    /// The URL as written, with its templates.
    public var template: String

    /// A change of `template`'s path: the values `names` make the segment `segment`.
    public init(names: [String], segment: String, template: String) {
        self.names = names
        self.segment = segment
        self.template = template
    }

    /// Names the values, the segment and the URL, for the feed's error.
    public var description: String {
        let values = names.map { "{{\($0)}}" }.joined(separator: " ")
        let what = segment.isEmpty ? "empty" : "'\(segment)'"
        return
            "\(values) is \(what), which would change the path of \(template): a value in a URL path must not make a segment '.', '..' or empty"
    }
}

extension TemplatedString {
    /// The first segment of the URL's path that values make `.` or `..`, or empty when one of
    /// the values is named in `notEmpty`, rendered as ``render(now:cursor:values:)`` would
    /// (the values already percent-encoded, so `/` in a value stays within its segment).
    /// Segments of the template's own text, the query and the fragment are not looked at.
    public func pathSegmentChange(
        now: Date, cursor: String? = nil, values: [String: String] = [:], notEmpty: (String) -> Bool
    ) -> PathSegmentChange? {
        var segment = ""
        var names: [String] = []
        func finish() -> PathSegmentChange? {
            defer {
                segment = ""
                names = []
            }
            guard !names.isEmpty else { return nil }
            if segment == "." || segment == ".." || (segment.isEmpty && names.contains(where: notEmpty)) {
                return PathSegmentChange(names: names, segment: segment, template: source)
            }
            return nil
        }
        for part in parts {
            switch part {
            case .literal(let text):
                for character in text {
                    if character == "?" || character == "#" { return finish() }
                    if character == "/" {
                        if let change = finish() { return change }
                    } else {
                        segment.append(character)
                    }
                }
            case .date(let expression):
                segment += expression.render(now: now)
            case .cursor:
                segment += cursor ?? ""
                names.append("cursor")
            case .variable(let name):
                segment += values[name] ?? ""
                names.append(name)
            }
        }
        return finish()
    }
}

import FeedKit

/// A compiled path into a JSON document: `$.data.items`, `cost.amount`, `$.rows[0].id`,
/// `$['odd.name']`.
///
/// Paths are parsed once, when the feed is loaded, into steps; looking a value up walks the
/// steps with no string processing. A path relative to a record may start with its first name
/// (`cost.amount`) or with `$.` (`$.cost.amount`); both mean the same.
struct JSONPath: Sendable, Hashable, CustomStringConvertible {
    enum Step: Sendable, Hashable {
        case key(String)
        case index(Int)
    }

    let steps: [Step]
    /// The path in its canonical `$.a.b[0]` form.
    let description: String

    /// The whole document.
    static let root = JSONPath(steps: [])

    /// The path as member names only, or `nil` when it has an index step.
    var memberNames: [String]? {
        var names: [String] = []
        for step in steps {
            guard case .key(let name) = step else { return nil }
            names.append(name)
        }
        return names
    }

    init(steps: [Step]) {
        self.steps = steps
        var text = "$"
        for step in steps {
            switch step {
            case .key(let name):
                if name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" }) {
                    text += ".\(name)"
                } else {
                    text += "['\(name.replacingOccurrences(of: "'", with: "\\'"))']"
                }
            case .index(let index): text += "[\(index)]"
            }
        }
        description = text
    }

    /// Parses `text`.
    ///
    /// - Throws: ``JSONPathError`` saying what is wrong and where.
    init(parsing text: String) throws(JSONPathError) {
        var steps: [Step] = []
        let characters = Array(text)
        var index = 0
        func fail(_ reason: String) -> JSONPathError { JSONPathError(path: text, reason: reason) }
        if characters.first == "$" {
            index = 1
        } else if characters.first == "." || characters.first == "[" {
            throw fail("start with '$' or a name")
        } else if !characters.isEmpty {
            // A relative path: read the first name as if it followed a dot.
            index = -1
        } else {
            throw fail("the path is empty")
        }
        while index < characters.count {
            if index == -1 || characters[index] == "." {
                index += 1
                let start = index
                while index < characters.count, characters[index] != ".", characters[index] != "[" {
                    if characters[index] == "]" || characters[index] == "$" || characters[index] == "*" {
                        throw fail("unexpected '\(characters[index])' in a name")
                    }
                    index += 1
                }
                guard index > start else { throw fail("a name is missing after '.'") }
                steps.append(.key(String(characters[start..<index])))
            } else if characters[index] == "[" {
                index += 1
                guard index < characters.count else { throw fail("'[' is not closed") }
                if characters[index] == "'" || characters[index] == "\"" {
                    let quote = characters[index]
                    index += 1
                    var name = ""
                    while index < characters.count, characters[index] != quote {
                        if characters[index] == "\\", index + 1 < characters.count { index += 1 }
                        name.append(characters[index])
                        index += 1
                    }
                    guard index + 1 < characters.count, characters[index + 1] == "]" else {
                        throw fail("a quoted name must end with \(quote)]")
                    }
                    index += 2
                    steps.append(.key(name))
                } else {
                    let start = index
                    while index < characters.count, characters[index].isASCII, characters[index].isNumber { index += 1 }
                    guard index > start, index < characters.count, characters[index] == "]",
                        let number = Int(String(characters[start..<index]))
                    else { throw fail("expected a list index like [0] or a quoted name like ['a.b']") }
                    index += 1
                    steps.append(.index(number))
                }
            } else {
                throw fail("expected '.' or '[' after \(String(characters[..<index]))")
            }
        }
        self.init(steps: steps)
    }

    /// The value at this path in `value`, or `nil` when a step is missing (or the value has the
    /// wrong kind for a step).
    func lookup(_ value: JSONValue) -> JSONValue? {
        var current = value
        for step in steps {
            switch step {
            case .key(let name):
                guard case .object(let object) = current, let member = object[name] else { return nil }
                current = member
            case .index(let position):
                guard case .array(let items) = current, items.indices.contains(position) else { return nil }
                current = items[position]
            }
        }
        return current
    }

    /// The name of the first step, for telling declared members from undeclared ones.
    var firstKey: String? {
        if case .key(let name)? = steps.first { return name }
        return nil
    }

    /// `base` followed by this path, for messages: `$.items[3]` + `cost.amount` = `$.items[3].cost.amount`.
    func appended(to base: String) -> String { base + description.dropFirst() }
}

/// A path in feeds.yaml that cannot be understood.
struct JSONPathError: Error, Sendable, CustomStringConvertible {
    var path: String
    var reason: String
    var description: String { "bad path '\(path)': \(reason)" }
}

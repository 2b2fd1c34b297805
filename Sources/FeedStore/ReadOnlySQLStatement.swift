/// A person's statement, scanned before it runs: exactly one `SELECT` or `WITH` statement,
/// its named parameters (`:name`) numbered for the database, and its identifiers, which
/// ``ReadOnlySQLPolicy`` checks.
///
/// The scan knows the store's lexical rules well enough to skip what is not code: string
/// literals (`'...'`, PostgreSQL's `E'...'` and `$tag$...$tag$`), quoted identifiers (`"..."`,
/// and SQLite's `[...]` and `` `...` ``), comments (`--`, `/* */`, nested on PostgreSQL) and
/// PostgreSQL's `::` casts. Other parameter forms (`?`, `$1`, `@name`, `$name`) are refused, so
/// every parameter has a name the form and the URL can give.
public struct ReadOnlySQLStatement: Sendable {
    package enum Flavor { case sqlite, postgres }

    /// The statement with each `:name` replaced by a numbered parameter (`?1` on SQLite, `$1` on
    /// PostgreSQL), without a trailing semicolon.
    package var text: String
    /// The parameters' names in order of first appearance: parameter `n` is `parameters[n - 1]`.
    package var parameters: [String]
    /// Every identifier, as written without its quotes.
    package var identifiers: [String]

    /// The named parameters of `statement`, in order of first appearance (none when it does not
    /// scan): the fields the SQL page shows.
    public static func parameterNames(in statement: String) -> [String] {
        (try? ReadOnlySQLStatement(statement, flavor: .postgres).parameters) ?? []
    }

    /// Scans `statement`.
    ///
    /// - Throws: ``ReadOnlySQLError`` (`.statement`) when it is empty, does not start with
    ///   `SELECT` or `WITH`, holds more than one statement or a parameter not written `:name`;
    ///   (`.refused`) when an identifier is refused by ``ReadOnlySQLPolicy``.
    package init(_ statement: String, flavor: Flavor) throws(ReadOnlySQLError) {
        guard !statement.unicodeScalars.contains("\u{0}") else {
            // Both databases would read the statement only up to it.
            throw ReadOnlySQLError(.statement, "the statement holds a NUL byte (U+0000)")
        }
        var scanner = Scanner(Array(statement.unicodeScalars), flavor: flavor)
        try scanner.scan()
        guard let first = scanner.firstWord else {
            throw ReadOnlySQLError(.statement, "no statement: write one SELECT (or WITH) statement")
        }
        guard ["select", "with"].contains(first.lowercased()) else {
            throw ReadOnlySQLError(
                .statement, "only a SELECT or WITH statement runs here, read-only; this one starts with \(first)")
        }
        for identifier in scanner.identifiers {
            if let refusal = ReadOnlySQLPolicy.refusal(ofIdentifier: identifier, functions: flavor == .postgres) {
                throw ReadOnlySQLError(.refused, refusal)
            }
        }
        text = String(String.UnicodeScalarView(scanner.output))
        parameters = scanner.parameters
        identifiers = scanner.identifiers
    }
}

/// The scan itself, one token at a time.
private struct Scanner {
    let input: [Unicode.Scalar]
    let flavor: ReadOnlySQLStatement.Flavor
    var index = 0
    var output: [Unicode.Scalar] = []
    var parameters: [String] = []
    var identifiers: [String] = []
    /// The first word, or `""` when the statement starts with something else.
    var firstWord: String?

    init(_ input: [Unicode.Scalar], flavor: ReadOnlySQLStatement.Flavor) {
        self.input = input
        self.flavor = flavor
    }

    private func at(_ offset: Int) -> Unicode.Scalar? {
        index + offset < input.count ? input[index + offset] : nil
    }

    private static func isIdentifierStart(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "_" || scalar.properties.isAlphabetic
    }

    private func isIdentifierPart(_ scalar: Unicode.Scalar) -> Bool {
        Self.isIdentifierStart(scalar) || ("0"..."9").contains(scalar) || (flavor == .postgres && scalar == "$")
    }

    private static func misnamed(_ written: String) -> ReadOnlySQLError {
        ReadOnlySQLError(
            .statement, "parameter \(written): write parameters as :name (a letter, then letters, digits or _)")
    }

    /// Notes the first significant token: a word, or something else (`""`).
    private mutating func significant(_ word: String = "") {
        if firstWord == nil { firstWord = word }
    }

    mutating func scan() throws(ReadOnlySQLError) {
        while index < input.count {
            let scalar = input[index]
            if scalar.properties.isWhitespace {
                output.append(scalar)
                index += 1
            } else if scalar == "-", at(1) == "-" {
                skipLineComment()
            } else if scalar == "/", at(1) == "*" {
                skipBlockComment()
            } else if scalar == ";" {
                index += 1
                try expectEnd()
            } else if scalar == "'" {
                significant()
                copyQuoted(until: "'", escapes: false)
            } else if scalar == "\"" || (flavor == .sqlite && scalar == "`") {
                significant()
                identifiers.append(copyQuoted(until: scalar, escapes: false))
            } else if flavor == .sqlite, scalar == "[" {
                significant()
                identifiers.append(copyQuoted(until: "]", escapes: false))
            } else if scalar == ":" {
                try colon()
            } else if scalar == "$" {
                try dollar()
            } else if flavor == .sqlite, scalar == "?" || scalar == "@" {
                throw Self.misnamed(String(scalar) + word(from: index + 1))
            } else if Self.isIdentifierStart(scalar) {
                try identifier()
            } else if ("0"..."9").contains(scalar) {
                significant()
                while let next = at(0), isIdentifierPart(next) || next == "." {
                    output.append(next)
                    index += 1
                }
            } else {
                significant()
                output.append(scalar)
                index += 1
            }
        }
    }

    /// The identifier characters from `start`, for a message.
    private func word(from start: Int) -> String {
        var end = start
        while end < input.count, isIdentifierPart(input[end]) { end += 1 }
        return String(String.UnicodeScalarView(input[start..<end]))
    }

    private mutating func identifier() throws(ReadOnlySQLError) {
        let start = index
        while let next = at(0), isIdentifierPart(next) { index += 1 }
        let name = String(String.UnicodeScalarView(input[start..<index]))
        significant(name)
        output.append(contentsOf: input[start..<index])
        if flavor == .postgres, at(0) == "'", name.lowercased() == "e" {
            copyQuoted(until: "'", escapes: true)
        } else if flavor == .postgres, name.lowercased() == "u", at(0) == "&", at(1) == "\"" {
            throw ReadOnlySQLError(
                .statement, "write identifiers plainly or in double quotes; U&\"...\" is not accepted here")
        } else {
            identifiers.append(name)
        }
    }

    private mutating func colon() throws(ReadOnlySQLError) {
        significant()
        if at(1) == ":" {
            output.append(contentsOf: [":", ":"])
            index += 2
            return
        }
        guard let next = at(1), Self.isIdentifierStart(next) else {
            output.append(":")
            index += 1
            return
        }
        let name = word(from: index + 1)
        guard name.unicodeScalars.allSatisfy({ $0.isASCII }) else { throw Self.misnamed(":" + name) }
        index += 1 + name.unicodeScalars.count
        if !parameters.contains(name) { parameters.append(name) }
        let number = (parameters.firstIndex(of: name) ?? 0) + 1
        output.append(contentsOf: ((flavor == .sqlite ? "?" : "$") + String(number)).unicodeScalars)
    }

    private mutating func dollar() throws(ReadOnlySQLError) {
        significant()
        guard flavor == .postgres else { throw Self.misnamed("$" + word(from: index + 1)) }
        if let next = at(1), ("0"..."9").contains(next) { throw Self.misnamed("$" + word(from: index + 1)) }
        // A dollar-quoted string: $$...$$ or $tag$...$tag$.
        var end = index + 1
        while end < input.count, input[end] != "$", isIdentifierPart(input[end]) { end += 1 }
        guard end < input.count, input[end] == "$" else {
            output.append("$")
            index += 1
            return
        }
        let tag = Array(input[index...end])
        var position = end + 1
        while position < input.count {
            if input[position] == "$", position + tag.count <= input.count,
                Array(input[position..<position + tag.count]) == tag
            {
                position += tag.count
                break
            }
            position += 1
        }
        output.append(contentsOf: input[index..<min(position, input.count)])
        index = min(position, input.count)
    }

    /// Copies a quoted token (a doubled closing quote stays inside it) and returns its content.
    @discardableResult
    private mutating func copyQuoted(until close: Unicode.Scalar, escapes: Bool) -> String {
        var content: [Unicode.Scalar] = []
        output.append(input[index])
        index += 1
        while index < input.count {
            let scalar = input[index]
            output.append(scalar)
            index += 1
            if escapes, scalar == "\\", index < input.count {
                output.append(input[index])
                content.append(input[index])
                index += 1
            } else if scalar == close {
                guard at(0) == close, close != "]" else { break }
                output.append(close)
                content.append(close)
                index += 1
            } else {
                content.append(scalar)
            }
        }
        return String(String.UnicodeScalarView(content))
    }

    private mutating func skipLineComment() {
        while index < input.count, input[index] != "\n" {
            output.append(input[index])
            index += 1
        }
    }

    private mutating func skipBlockComment() {
        var depth = 0
        while index < input.count {
            if input[index] == "/", at(1) == "*" {
                depth += flavor == .postgres || depth == 0 ? 1 : 0
                output.append(contentsOf: ["/", "*"])
                index += 2
            } else if input[index] == "*", at(1) == "/" {
                depth -= 1
                output.append(contentsOf: ["*", "/"])
                index += 2
                if depth == 0 { return }
            } else {
                output.append(input[index])
                index += 1
            }
        }
    }

    /// After a `;`: nothing but space and comments.
    private mutating func expectEnd() throws(ReadOnlySQLError) {
        while index < input.count {
            if input[index].properties.isWhitespace {
                index += 1
            } else if input[index] == "-", at(1) == "-" {
                skipLineComment()
            } else if input[index] == "/", at(1) == "*" {
                skipBlockComment()
            } else {
                throw ReadOnlySQLError(.statement, "one statement at a time: remove what follows the first ';'")
            }
        }
    }
}

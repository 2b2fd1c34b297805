import Foundation

/// A string with date expressions in `{{ }}`, evaluated when a request is made.
///
/// An expression is a base (`today`: midnight UTC; `now`: this instant), an optional offset
/// (`+1d`, `-12h`, `+30m`) and an optional format after `|`:
///
/// - `dd/MM/yyyy`-style patterns with the tokens `yyyy`, `yy`, `MM`, `dd`, `HH`, `mm`, `ss`;
/// - strftime-style patterns with `%Y`, `%m`, `%d`, `%H`, `%M`, `%S`, `%%`;
/// - `unix` for seconds since 1970, `iso` for ISO 8601 (`2024-01-31T00:00:00Z`).
///
/// Without a format, `yyyy-MM-dd`. All dates are UTC. `{{cursor}}` is no date: it stands for
/// an incremental feed's cursor (the json adapter's `incremental:`), given to
/// ``render(now:cursor:values:)``.
///
/// ```
/// dateFrom: "{{today|dd/MM/yyyy}}"      # 21/11/2026
/// dateTo: "{{today+1d|dd/MM/yyyy}}"     # 22/11/2026
/// since: "{{now-1h|iso}}"
/// ```
public struct TemplatedString: Sendable, Hashable, Decodable, CustomStringConvertible {
    enum Part: Sendable, Hashable {
        case literal(String)
        case date(DateExpression)
        case cursor
        /// A value given when the string is rendered: one of ``variableNames``.
        case variable(String)
    }

    /// The names of the values given to ``render(now:cursor:values:)``, besides `cursor`: a
    /// page's number, offset, size and cursor (the json adapter's pagination), and the bounds
    /// of the date window a request reads (its `incremental: {window: ...}`).
    public static let variableNames: Set<String> = [
        "page", "offset", "limit", "page_cursor", "window.start", "window.end",
    ]

    /// The prefix of the values a parent record gives a child request (`{{parent.id}}`, the
    /// json adapter's `for_each:`): any field name may follow it.
    public static let parentPrefix = "parent."

    let parts: [Part]
    /// The text as written.
    public let source: String

    /// Parses `text`; text without `{{` is taken literally.
    ///
    /// - Throws: ``TemplateError`` naming the bad expression.
    public init(parsing text: String) throws(TemplateError) {
        var parts: [Part] = []
        var rest = Substring(text)
        while let open = rest.range(of: "{{") {
            if open.lowerBound > rest.startIndex { parts.append(.literal(String(rest[..<open.lowerBound]))) }
            guard let close = rest[open.upperBound...].range(of: "}}") else {
                throw TemplateError(expression: String(rest[open.lowerBound...]), reason: "'{{' without '}}'")
            }
            let body = String(rest[open.upperBound..<close.lowerBound])
            let name = body.trimmingSpaces
            if name == "cursor" {
                parts.append(.cursor)
            } else if Self.variableNames.contains(name) {
                parts.append(.variable(name))
            } else if name.hasPrefix(Self.parentPrefix) {
                let field = name.dropFirst(Self.parentPrefix.count)
                guard !field.isEmpty, field.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else {
                    throw TemplateError(
                        expression: "{{\(body)}}",
                        reason: "a parent value is written {{parent.FIELD}}, FIELD a field name")
                }
                parts.append(.variable(name))
            } else {
                parts.append(.date(try DateExpression(parsing: body)))
            }
            rest = rest[close.upperBound...]
        }
        if !rest.isEmpty { parts.append(.literal(String(rest))) }
        self.parts = parts
        self.source = text
    }

    /// `text` taken as it is, with no expression.
    public init(literal text: String) {
        parts = text.isEmpty ? [] : [.literal(text)]
        source = text
    }

    /// Reads an option's string and parses it; a bad template is a decoding error at the option.
    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        do {
            try self.init(parsing: text)
        } catch {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: error.description))
        }
    }

    /// The string with every expression evaluated at `now`, `{{cursor}}` replaced by `cursor`
    /// and each of ``variableNames`` by its value in `values` (by nothing when there is none).
    public func render(now: Date, cursor: String? = nil, values: [String: String] = [:]) -> String {
        parts.map { part in
            switch part {
            case .literal(let text): text
            case .date(let expression): expression.render(now: now)
            case .cursor: cursor ?? ""
            case .variable(let name): values[name] ?? ""
            }
        }.joined()
    }

    /// Whether the text holds `{{cursor}}`.
    public var holdsCursor: Bool { parts.contains(.cursor) }

    /// The ``variableNames`` the text holds.
    public var variables: Set<String> {
        Set(parts.compactMap { if case .variable(let name) = $0 { name } else { nil } })
    }

    /// The name of the one value the text is made of (`cursor` or one of ``variableNames``),
    /// or `nil` when it holds anything else.
    public var onlyValue: String? {
        guard parts.count == 1 else { return nil }
        switch parts[0] {
        case .cursor: return "cursor"
        case .variable(let name): return name
        default: return nil
        }
    }

    /// The text as written (``source``).
    public var description: String { source }
}

/// A `{{ }}` expression that cannot be understood.
public struct TemplateError: Error, Sendable, CustomStringConvertible {
    /// The expression at fault, as written.
    public var expression: String
    /// Why it cannot be understood.
    public var reason: String

    /// The expression and the reason, for the option's error.
    public var description: String { "bad template '\(expression)': \(reason)" }
}

struct DateExpression: Sendable, Hashable {
    enum Base: String, Sendable { case today, now }
    enum Format: Sendable, Hashable {
        case pattern([Token])
        case unix
        case iso
    }
    enum Token: Sendable, Hashable {
        case literal(String)
        case year4, year2, month, day, hour, minute, second
    }

    let base: Base
    /// Signed offset in milliseconds.
    let offset: Int64
    let format: Format

    init(parsing body: String) throws(TemplateError) {
        let expression = "{{\(body)}}"
        let pieces = body.split(separator: "|", maxSplits: 1, omittingEmptySubsequences: false)
        var head = pieces[0].trimmingSpaces
        var offset: Int64 = 0
        if let signIndex = head.firstIndex(where: { $0 == "+" || $0 == "-" }) {
            let sign: Int64 = head[signIndex] == "-" ? -1 : 1
            let amount = head[head.index(after: signIndex)...].trimmingSpaces
            guard let duration = FeedDuration(parsing: amount), !amount.isEmpty else {
                throw TemplateError(expression: expression, reason: "'\(amount)' is not an offset like 1d, 12h or 30m")
            }
            offset = sign * duration.milliseconds
            head = head[..<signIndex].trimmingSpaces
        }
        guard let base = Base(rawValue: head) else {
            throw TemplateError(expression: expression, reason: "unknown value '\(head)'; use today or now")
        }
        self.base = base
        self.offset = offset
        if pieces.count == 2 {
            let pattern = pieces[1].trimmingSpaces
            switch pattern {
            case "": throw TemplateError(expression: expression, reason: "empty format after '|'")
            case "unix": format = .unix
            case "iso": format = .iso
            default:
                format = .pattern(
                    pattern.contains("%")
                        ? try Self.strftimeTokens(pattern, expression: expression) : Self.patternTokens(pattern))
            }
        } else {
            format = .pattern([.year4, .literal("-"), .month, .literal("-"), .day])
        }
    }

    private static func patternTokens(_ pattern: String) -> [Token] {
        var tokens: [Token] = []
        var rest = Substring(pattern)
        let table: [(String, Token)] = [
            ("yyyy", .year4), ("yy", .year2), ("MM", .month), ("dd", .day), ("HH", .hour), ("mm", .minute),
            ("ss", .second),
        ]
        outer: while !rest.isEmpty {
            for (text, token) in table where rest.hasPrefix(text) {
                tokens.append(token)
                rest = rest.dropFirst(text.count)
                continue outer
            }
            tokens.append(.literal(String(rest.first!)))
            rest = rest.dropFirst()
        }
        return tokens
    }

    private static func strftimeTokens(_ pattern: String, expression: String) throws(TemplateError) -> [Token] {
        var tokens: [Token] = []
        var iterator = pattern.makeIterator()
        while let character = iterator.next() {
            guard character == "%" else {
                tokens.append(.literal(String(character)))
                continue
            }
            switch iterator.next() {
            case "Y": tokens.append(.year4)
            case "y": tokens.append(.year2)
            case "m": tokens.append(.month)
            case "d": tokens.append(.day)
            case "H": tokens.append(.hour)
            case "M": tokens.append(.minute)
            case "S": tokens.append(.second)
            case "%": tokens.append(.literal("%"))
            case let other:
                throw TemplateError(
                    expression: expression, reason: "unknown format '%\(other.map(String.init) ?? "")'")
            }
        }
        return tokens
    }

    func render(now: Date) -> String {
        var seconds = Int64(now.timeIntervalSince1970.rounded(.down))
        if base == .today { seconds -= ((seconds % 86_400) + 86_400) % 86_400 }
        seconds += offset / 1000
        let civil = CivilTime(unixSeconds: seconds)
        switch format {
        case .unix: return String(seconds)
        case .iso: return civil.iso8601
        case .pattern(let tokens):
            return tokens.map { token in
                switch token {
                case .literal(let text): text
                case .year4: civil.pad(civil.year, 4)
                case .year2: civil.pad(civil.year % 100, 2)
                case .month: civil.pad(civil.month, 2)
                case .day: civil.pad(civil.day, 2)
                case .hour: civil.pad(civil.hour, 2)
                case .minute: civil.pad(civil.minute, 2)
                case .second: civil.pad(civil.second, 2)
                }
            }.joined()
        }
    }
}

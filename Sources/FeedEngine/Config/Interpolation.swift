import FeedKit
import FeedStore
import FeedStoreDrivers
import Foundation
import Yams

/// Replaces `${VAR}` in every scalar of a YAML tree with the environment's value, and checks
/// every `{{ }}` date template.
///
/// Values taken from the environment are secrets: they are collected so they can be redacted
/// wherever they might leave the engine. YAML merge keys (`<<: *base`) are applied here too. `${VAR:-fallback}` uses `fallback` when `VAR` is unset
/// (the fallback is not a secret, but may hold variables: `${A:-${B}}`); `$${` writes a literal
/// `${`. In a URL value (`url`, `*_url`), a variable after the host is percent-encoded, and in a
/// PostgreSQL `store:` URL one in the user and password too (`p@ss` is `p%40ss`). An unset
/// variable is a problem, or, for commands that only read the store, the placeholder `***`
/// (``ConfigLoader/UnsetVariables``). The walk also bounds the number
/// of nodes, so a document of nested aliases (an "alias bomb") is refused instead of expanded.
struct Interpolation {
    static let maximumNodes = 1_000_000

    let environment: [String: String]
    let file: String
    let unsetVariables: ConfigLoader.UnsetVariables
    private(set) var secrets: [String] = []
    /// The variables whose values were used, name to value.
    private(set) var variables: [String: String] = [:]
    /// The variables used at least once where a secret may be (``SecretPlaces``).
    private var secretNames: Set<String> = []
    /// Whether the value being interpolated is at a place that may hold a secret.
    private var inSecretPlace = true
    private(set) var problems: [ConfigProblem] = []
    /// With ``ConfigLoader/UnsetVariables/placeholder``: the unset variables that were replaced
    /// by the placeholder, each as the problem it would otherwise have been.
    private(set) var placeheld: [ConfigProblem] = []
    private var visited = 0

    init(environment: [String: String], file: String, unsetVariables: ConfigLoader.UnsetVariables = .error) {
        self.environment = environment
        self.file = file
        self.unsetVariables = unsetVariables
    }

    /// The variables whose values may be secrets: all but those used only where no secret is
    /// (``SecretPlaces``), whose values problems may show (`unknown auth type 'bearr'`).
    var secretVariables: [String: String] { variables.filter { secretNames.contains($0.key) } }

    /// The tree with every scalar interpolated, or `nil` when the document is too large.
    ///
    /// - Parameter secret: whether the node is at a place that may hold a secret (the root is
    ///   not; below it, ``SecretPlaces`` decides by the keys on the way).
    mutating func apply(to node: Node, inURL: Bool = false, secret: Bool = false) -> Node? {
        visited += 1
        if visited > Self.maximumNodes {
            if visited == Self.maximumNodes + 1 {
                problems.append(
                    ConfigProblem(
                        "the document expands to more than \(Self.maximumNodes) nodes (nested aliases?)",
                        at: SourceLocation(file: file, mark: node.mark)))
            }
            return nil
        }
        switch node {
        case .scalar(let scalar):
            inSecretPlace = secret
            let text = interpolate(scalar.string, mark: scalar.mark, inURL: inURL)
            guard text != scalar.string else { return node }
            // A new scalar, not an assignment to `string`: that resets the tag through Yams's
            // default resolver, whose rules are regular expressions compiled at first use.
            return .scalar(Node.Scalar(text, scalar.tag, scalar.style, scalar.mark, scalar.anchor))
        case .mapping(let mapping):
            var pairs: [(Node, Node)] = []
            for (key, value) in mapping {
                // `url`, `stats_url`, `listing_url`...: values that are URLs.
                let name = key.scalar?.string ?? ""
                let isURL = name == "url" || name.hasSuffix("_url") || name == "store"
                let secretValue = secret || isURL || SecretPlaces.mayHoldSecret(key: name)
                guard let newValue = apply(to: value, inURL: isURL, secret: secretValue) else {
                    return nil
                }
                pairs.append((key, newValue))
            }
            if pairs.contains(where: { Self.isMergeKey($0.0) }) { pairs = applyingMergeKeys(pairs) }
            return .mapping(Node.Mapping(pairs, mapping.tag, mapping.style, mapping.mark))
        case .sequence(let sequence):
            var nodes: [Node] = []
            for item in sequence {
                guard let newItem = apply(to: item, secret: secret) else { return nil }
                nodes.append(newItem)
            }
            return .sequence(Node.Sequence(nodes, sequence.tag, sequence.style, sequence.mark))
        case .alias:
            return node
        }
    }

    /// Whether `key` is YAML's merge key `<<` (written plain, not quoted).
    static func isMergeKey(_ key: Node) -> Bool {
        guard let scalar = key.scalar else { return false }
        return scalar.string == "<<" && scalar.style == .plain
    }

    /// `pairs` with each merge key (`<<: *base`, `<<: [*a, *b]`) replaced by the keys of the
    /// mapping(s) it names that the mapping does not set itself, in their place; a merge key
    /// naming anything else is a problem at its value.
    private mutating func applyingMergeKeys(_ pairs: [(Node, Node)]) -> [(Node, Node)] {
        var present = Set(pairs.compactMap { Self.isMergeKey($0.0) ? nil : $0.0.scalar?.string })
        var result: [(Node, Node)] = []
        for (key, value) in pairs {
            guard Self.isMergeKey(key) else {
                result.append((key, value))
                continue
            }
            let sources: [Node.Mapping]
            if let mapping = value.mapping {
                sources = [mapping]
            } else if let sequence = value.sequence, sequence.allSatisfy({ $0.mapping != nil }) {
                sources = sequence.compactMap(\.mapping)
            } else {
                problems.append(
                    ConfigProblem(
                        "a merge key '<<' takes a mapping or a list of mappings (such as *base), not \(value.kindName)",
                        at: SourceLocation(file: file, mark: value.mark)))
                continue
            }
            for source in sources {
                for (mergedKey, mergedValue) in source where present.insert(mergedKey.scalar?.string ?? "").inserted {
                    result.append((mergedKey, mergedValue))
                }
            }
        }
        return result
    }

    private mutating func interpolate(_ text: String, mark: Mark?, inURL: Bool) -> String {
        if text.contains("{{") {
            do {
                _ = try TemplatedString(parsing: text)
            } catch {
                problems.append(ConfigProblem(error.description, at: SourceLocation(file: file, mark: mark)))
            }
        }
        guard text.contains("${") else { return text }
        return substitute(Substring(text), prefix: "", mark: mark, inURL: inURL) ?? text
    }

    /// `text` with its `${VAR}` replaced, or `nil` after recording a problem. `prefix` is what
    /// precedes `text` in the value (for a fallback, the value up to its `${`): in a URL value,
    /// a variable that comes after the host is percent-encoded, so `+ / & =` in a key stay data.
    private mutating func substitute(_ text: Substring, prefix: String, mark: Mark?, inURL: Bool) -> String? {
        let location = SourceLocation(file: file, mark: mark)
        var result = ""
        var rest = text
        while let start = rest.range(of: "${") {
            if start.lowerBound > rest.startIndex, rest[rest.index(before: start.lowerBound)] == "$" {
                result += rest[..<rest.index(before: start.lowerBound)] + "${"
                rest = rest[start.upperBound...]
                continue
            }
            result += rest[..<start.lowerBound]
            guard let end = Self.closingBrace(in: rest[start.upperBound...]) else {
                problems.append(ConfigProblem("'${' without a closing '}'", at: location))
                return nil
            }
            let body = rest[start.upperBound..<end]
            let separator = body.range(of: ":-")
            let name = String(body[..<(separator?.lowerBound ?? body.endIndex)])
            guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else {
                problems.append(ConfigProblem("'${\(body)}' is not a variable name", at: location))
                return nil
            }
            if let value = environment[name] ?? placeholder(for: name, at: location, hasFallback: separator != nil) {
                let encoded = inURL && Self.encodes(after: prefix + result, before: rest[rest.index(after: end)...])
                result += encoded ? URLQuery.encode(value) : value
                secrets.append(value)
                variables[name] = value
                if inSecretPlace || SecretPlaces.mayHoldSecret(variable: name) { secretNames.insert(name) }
            } else if let separator {
                // The fallback may itself hold variables: `${A:-${B}}` needs B when A is unset.
                guard
                    let fallback = substitute(
                        body[separator.upperBound...], prefix: prefix + result, mark: mark, inURL: inURL)
                else { return nil }
                result += fallback
            } else {
                problems.append(ConfigProblem(Self.unsetMessage(name), at: location))
                return nil
            }
            rest = rest[rest.index(after: end)...]
        }
        return result + rest
    }

    /// The placeholder standing for the unset variable `name` (without a fallback) when unset
    /// variables are not errors, noting where it was used.
    private mutating func placeholder(for name: String, at location: SourceLocation, hasFallback: Bool) -> String? {
        guard !hasFallback, unsetVariables == .placeholder else { return nil }
        placeheld.append(ConfigProblem(Self.unsetMessage(name), at: location))
        return ConfigLoader.placeholder
    }

    static func unsetMessage(_ name: String) -> String {
        "environment variable \(name) is not set (write ${\(name):-default} for a default)"
    }

    /// The `}` closing a `${` whose body starts `text`, skipping nested `${...}`.
    static func closingBrace(in text: Substring) -> Substring.Index? {
        var depth = 0
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            if character == "$", text[index...].hasPrefix("${") {
                depth += 1
                index = text.index(index, offsetBy: 2)
                continue
            }
            if character == "}" {
                if depth == 0 { return index }
                depth -= 1
            }
            index = text.index(after: index)
        }
        return nil
    }

    /// Whether a variable between `prefix` and `suffix` (the value's text around it) is data to
    /// percent-encode: past the host of an http(s) URL, or in the user or password of a store
    /// server's URL such as `postgres://` (an `@` follows it within the authority).
    static func encodes(after prefix: String, before suffix: Substring) -> Bool {
        let lower = prefix.lowercased()
        guard StoreFactory.isServerURL(lower), let scheme = lower.range(of: "://") else { return isPastHost(prefix) }
        let authorityEnds: (Character) -> Bool = { $0 == "/" || $0 == "?" || $0 == "#" }
        guard !lower[scheme.upperBound...].contains(where: { $0 == "@" || authorityEnds($0) }) else { return false }
        return suffix.prefix(while: { !authorityEnds($0) }).contains("@")
    }

    /// Whether `prefix` is an http(s) URL up to at least the start of its path or query, so
    /// what follows is a path or query component rather than the scheme or host.
    static func isPastHost(_ prefix: String) -> Bool {
        let lower = prefix.lowercased()
        guard let scheme = lower.range(of: "://"), lower.hasPrefix("http://") || lower.hasPrefix("https://")
        else { return false }
        return lower[scheme.upperBound...].contains { $0 == "/" || $0 == "?" || $0 == "#" }
    }
}

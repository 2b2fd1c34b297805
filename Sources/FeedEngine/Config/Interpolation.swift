import FeedKit
import Foundation
import Yams

/// Replaces `${VAR}` in every scalar of a YAML tree with the environment's value, and checks
/// every `{{ }}` date template.
///
/// Values taken from the environment are secrets: they are collected so they can be redacted
/// wherever they might leave the engine. `${VAR:-fallback}` uses `fallback` when `VAR` is unset
/// (the fallback is not a secret); `$${` writes a literal `${`. The walk also bounds the number
/// of nodes, so a document of nested aliases (an "alias bomb") is refused instead of expanded.
struct Interpolation {
    static let maximumNodes = 100_000

    let environment: [String: String]
    let file: String
    private(set) var secrets: [String] = []
    /// The variables whose values were used, name to value.
    private(set) var variables: [String: String] = [:]
    private(set) var problems: [ConfigProblem] = []
    private var visited = 0

    init(environment: [String: String], file: String) {
        self.environment = environment
        self.file = file
    }

    /// The tree with every scalar interpolated, or `nil` when the document is too large.
    mutating func apply(to node: Node) -> Node? {
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
        case .scalar(var scalar):
            scalar.string = interpolate(scalar.string, mark: scalar.mark)
            return .scalar(scalar)
        case .mapping(let mapping):
            var pairs: [(Node, Node)] = []
            for (key, value) in mapping {
                guard let newValue = apply(to: value) else { return nil }
                pairs.append((key, newValue))
            }
            return .mapping(Node.Mapping(pairs, mapping.tag, mapping.style, mapping.mark))
        case .sequence(let sequence):
            var nodes: [Node] = []
            for item in sequence {
                guard let newItem = apply(to: item) else { return nil }
                nodes.append(newItem)
            }
            return .sequence(Node.Sequence(nodes, sequence.tag, sequence.style, sequence.mark))
        case .alias:
            return node
        }
    }

    private mutating func interpolate(_ text: String, mark: Mark?) -> String {
        if text.contains("{{") {
            do {
                _ = try TemplatedString(parsing: text)
            } catch {
                problems.append(ConfigProblem(error.description, at: SourceLocation(file: file, mark: mark)))
            }
        }
        guard text.contains("${") else { return text }
        var result = ""
        var rest = Substring(text)
        while let start = rest.range(of: "${") {
            if start.lowerBound > rest.startIndex, rest[rest.index(before: start.lowerBound)] == "$" {
                result += rest[..<rest.index(before: start.lowerBound)] + "${"
                rest = rest[start.upperBound...]
                continue
            }
            result += rest[..<start.lowerBound]
            guard let end = rest[start.upperBound...].firstIndex(of: "}") else {
                problems.append(
                    ConfigProblem("'${' without a closing '}'", at: SourceLocation(file: file, mark: mark)))
                return text
            }
            let body = String(rest[start.upperBound..<end])
            let parts = body.components(separatedBy: ":-")
            let name = parts[0]
            guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else {
                problems.append(
                    ConfigProblem("'${\(body)}' is not a variable name", at: SourceLocation(file: file, mark: mark)))
                return text
            }
            if let value = environment[name] {
                result += value
                secrets.append(value)
                variables[name] = value
            } else if parts.count > 1 {
                result += parts.dropFirst().joined(separator: ":-")
            } else {
                problems.append(
                    ConfigProblem(
                        "environment variable \(name) is not set (write ${\(name):-default} for a default)",
                        at: SourceLocation(file: file, mark: mark)))
            }
            rest = rest[rest.index(after: end)...]
        }
        return result + rest
    }
}

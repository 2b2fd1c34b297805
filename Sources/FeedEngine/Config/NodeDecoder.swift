import FeedKit
import Foundation
import Yams

/// Decodes `Decodable` values from a YAML node, strictly, with `file:line:column` in every error.
///
/// Unlike a plain `Decoder`, it rejects keys the type does not read ("unknown key 'urll';
/// did you mean 'url'?"), so a typo in feeds.yaml never passes silently. `Decimal` values are
/// read from the scalar's text, exactly.
public struct NodeDecoder: Sendable {
    /// The file the node came from, for locations.
    public var file: String

    public init(file: String) { self.file = file }

    /// Decodes `type` from `node`.
    ///
    /// - Throws: ``ConfigError`` listing every problem: missing and unknown keys, wrong types,
    ///   invalid values.
    public func decode<T: Decodable>(_ type: T.Type, from node: Node, codingPath: [any CodingKey] = []) throws -> T {
        let result = decodeCollecting(type, from: node, codingPath: codingPath)
        if let value = result.value, result.problems.isEmpty { return value }
        throw ConfigError(result.problems)
    }

    /// The most decodings ``decodeCollecting(_:from:codingPath:)`` tries.
    static let maximumAttempts = 100

    /// Decodes `type` from `node`, going on after each problem so that all of them are found:
    /// the value at fault is left out (as if its key were absent) and the decoding is tried
    /// again. A required key left out leaves out the mapping that holds it, up to `node` itself.
    ///
    /// - Returns: every problem, and the value decoded without the values at fault (`nil` when
    ///   `node` itself could not be decoded). The value is only as good as a starting point for
    ///   further checks: a caller must not use it when there are problems.
    func decodeCollecting<T: Decodable>(_ type: T.Type, from node: Node, codingPath: [any CodingKey] = [])
        -> (value: T?, problems: [ConfigProblem])
    {
        var masked = Set<String>()
        var problems: [ConfigProblem] = []
        // The stand-ins tried for required keys of `node` itself that are missing, by path.
        var standIns = StandIns()
        for _ in 0..<Self.maximumAttempts {
            let ledger = KeyLedger(masked: masked, standIns: standIns.nodes)
            let decoder = YAMLNodeDecoder(node: node, codingPath: codingPath, file: file, ledger: ledger)
            do {
                let value = try T(from: decoder)
                // A value made with stand-ins served to find the unknown keys only.
                return (standIns.isEmpty ? value : nil, problems + ledger.unknownKeyProblems(file: file))
            } catch {
                let failure = decoder.failure(for: error)
                if standIns.replace(failingAt: renderPath(failure.path)) { continue }
                if standIns.isExhausted {
                    return (nil, problems + ledger.unknownKeyProblems(file: file, onlyMisspellings: true))
                }
                // A required key left out after an earlier problem is not missing again.
                let leftOut =
                    failure.missingKey.map {
                        masked.contains(renderPath(failure.path + [AnyCodingKey(stringValue: $0)]))
                    } ?? false
                if !leftOut { problems += failure.problems }
                // A decoding that stopped early did not ask for every key it knows, so then only
                // keys that look like a misspelling of one it asked for are reported.
                guard let entry = Self.entryToLeaveOut(failure.path, below: codingPath.count),
                    masked.insert(renderPath(entry)).inserted
                else {
                    // A required key of `node` itself is missing: the decoding goes on with a
                    // stand-in for it, so that the keys after it are asked for and the unknown
                    // ones reported too.
                    if let missing = failure.missingKey, failure.path.count == codingPath.count,
                        standIns.add(renderPath(failure.path + [AnyCodingKey(stringValue: missing)]))
                    {
                        continue
                    }
                    return (nil, problems + ledger.unknownKeyProblems(file: file, onlyMisspellings: true))
                }
            }
        }
        return (nil, problems)
    }

    /// The mapping entry holding the value at `path`: the longest prefix ending in a key (an
    /// item of a list leaves out the whole list), deeper than the root's `depth`.
    static func entryToLeaveOut(_ path: [any CodingKey], below depth: Int) -> [any CodingKey]? {
        var entry = path
        while let last = entry.last, last.intValue != nil { entry.removeLast() }
        return entry.count > depth ? entry : nil
    }
}

/// Why a decoding stopped: the problems and the coding path of the value at fault, so the
/// decoding can go on without it.
struct NodeDecodingFailure: Error {
    var problems: [ConfigProblem]
    /// The full coding path of the value at fault (for a missing key, of its mapping).
    var path: [any CodingKey]
    /// The key that was missing, for a missing key.
    var missingKey: String?
}

/// Records which keys each mapping was asked for, to find the keys nobody read.
final class KeyLedger: @unchecked Sendable {
    // Only touched by one decoding pass on one thread.
    private var mappings: [String: (node: Node.Mapping, path: String, asked: Set<String>)] = [:]
    private var order: [String] = []
    /// The paths (``renderPath(_:)``) of the values left out after a problem: they read as absent.
    let masked: Set<String>
    /// Values read for missing required keys, by path (``NodeDecoder/StandIns``).
    let standIns: [String: Node]

    init(masked: Set<String> = [], standIns: [String: Node] = [:]) {
        self.masked = masked
        self.standIns = standIns
    }

    func register(_ mapping: Node.Mapping, path: String) {
        if mappings[path] == nil {
            mappings[path] = (mapping, path, [])
            order.append(path)
        }
    }

    func ask(_ key: String, path: String) { mappings[path]?.asked.insert(key) }

    func unknownKeyProblems(file: String, onlyMisspellings: Bool = false) -> [ConfigProblem] {
        var problems: [ConfigProblem] = []
        for path in order {
            guard let entry = mappings[path] else { continue }
            let expected = entry.asked.sorted()
            for (keyNode, _) in entry.node {
                guard let key = keyNode.scalar?.string, !entry.asked.contains(key) else { continue }
                let suggestion = Spelling.nearest(to: key, in: expected)
                if onlyMisspellings && suggestion == nil { continue }
                var message = "unknown key '\(key)'"
                if !path.isEmpty { message += " in \(path)" }
                if let suggestion {
                    message += "; did you mean '\(suggestion)'?"
                } else if !expected.isEmpty {
                    message += "; expected one of: \(expected.joined(separator: ", "))"
                }
                problems.append(ConfigProblem(message, at: SourceLocation(file: file, mark: keyNode.mark)))
            }
        }
        return problems
    }
}

extension Node {
    /// The node at `path` below this one, following mapping keys and sequence indexes.
    func descendant(at path: [any CodingKey]) -> Node? {
        var node = self
        for key in path {
            if let index = key.intValue, let sequence = node.sequence, index < sequence.count {
                node = sequence[index]
            } else if let mapping = node.mapping, let child = mapping[key.stringValue] {
                node = child
            } else {
                return nil
            }
        }
        return node
    }

    /// A short name of the node's kind, for messages.
    var kindName: String {
        switch self {
        case .scalar: "a scalar"
        case .mapping: "a mapping"
        case .sequence: "a list"
        case .alias: "an alias"
        }
    }

    /// Whether the node is YAML's null (`~`, `null` or nothing).
    var isNull: Bool {
        guard let scalar = scalar, scalar.style == .plain || scalar.style == .any else { return false }
        return ["", "~", "null", "Null", "NULL"].contains(scalar.string)
    }
}

/// A coding-path rendering such as `feeds[2].fields.price`.
func renderPath(_ path: [any CodingKey]) -> String {
    var text = ""
    for key in path {
        if let index = key.intValue {
            text += "[\(index)]"
        } else {
            text += text.isEmpty ? key.stringValue : ".\(key.stringValue)"
        }
    }
    return text
}

struct YAMLNodeDecoder: Decoder {
    let node: Node
    let codingPath: [any CodingKey]
    let file: String
    let ledger: KeyLedger
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func location(_ node: Node) -> SourceLocation { SourceLocation(file: file, mark: node.mark) }

    /// A problem with this decoder's value.
    func failure(_ message: String, at node: Node) -> NodeDecodingFailure {
        NodeDecodingFailure(problems: [ConfigProblem(message, at: location(node))], path: codingPath)
    }

    /// `error`, thrown while decoding this decoder's value, with the path of the value at fault.
    func failure(for error: any Error) -> NodeDecodingFailure {
        switch error {
        case let failure as NodeDecodingFailure:
            return failure
        case let error as ConfigError:
            return NodeDecodingFailure(problems: error.problems, path: codingPath)
        case let error as DecodingError:
            let path: [any CodingKey]
            let message: String
            switch error {
            case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
                path = context.codingPath
                message = context.debugDescription
            case .keyNotFound(let key, let context):
                path = context.codingPath
                message = "missing key '\(key.stringValue)'"
            @unknown default:
                path = codingPath
                message = String(describing: error)
            }
            // Paths below this decoder's; anything else is this value's problem.
            let isBelow =
                path.count >= codingPath.count
                && zip(path, codingPath).allSatisfy { $0.stringValue == $1.stringValue && $0.intValue == $1.intValue }
            let relative = isBelow ? Array(path.dropFirst(codingPath.count)) : []
            let at = node.descendant(at: relative) ?? node
            return NodeDecodingFailure(
                problems: [ConfigProblem(message, at: location(at))], path: isBelow ? path : codingPath)
        default:
            return NodeDecodingFailure(
                problems: [ConfigProblem(String(describing: error), at: location(node))], path: codingPath)
        }
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard let mapping = node.mapping else {
            if node.isNull {
                // An empty block (`options:` with nothing under it) reads as an empty mapping.
                // The node's own tag: `.implicit` would build Yams's default resolver.
                let empty = Node.Mapping([], node.tag, .any, node.mark)
                return KeyedDecodingContainer(NodeKeyedContainer<Key>(decoder: self, mapping: empty))
            }
            throw failure("expected a mapping, found \(node.kindName)", at: node)
        }
        return KeyedDecodingContainer(NodeKeyedContainer<Key>(decoder: self, mapping: mapping))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard let sequence = node.sequence else {
            throw failure("expected a list, found \(node.kindName)", at: node)
        }
        return NodeUnkeyedContainer(decoder: self, nodes: Array(sequence))
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        NodeSingleValueContainer(decoder: self)
    }

    func child(_ node: Node, key: any CodingKey) -> YAMLNodeDecoder {
        YAMLNodeDecoder(node: node, codingPath: codingPath + [key], file: file, ledger: ledger)
    }

    /// Decodes `type` from this decoder's value; any error becomes a ``NodeDecodingFailure``
    /// naming the value at fault.
    func decodeValue<T: Decodable>(_ type: T.Type) throws(NodeDecodingFailure) -> T {
        do {
            return try decodeValueUnchecked(type)
        } catch {
            throw failure(for: error)
        }
    }

    private func decodeValueUnchecked<T: Decodable>(_ type: T.Type) throws -> T {
        if type == Decimal.self {
            let text = try scalarText(expecting: "a decimal number")
            // No locale: `.` is the decimal point, without loading ICU's number formats.
            guard let value = Decimal(string: text),
                text.allSatisfy({ "0123456789+-.eE".contains($0) })
            else { throw failure("'\(text)' is not a decimal number", at: node) }
            guard let decimal = value as? T else { throw failure("expected a decimal number", at: node) }
            return decimal
        }
        do {
            return try T(from: self)
        } catch DecodingError.dataCorrupted(let context) {
            // Swift's own message for an unknown raw value names the Swift type, not the choices.
            // Asked only now: the first check of each type against a protocol scans all of the
            // program's conformance records, which for every type of an adapter's options cost
            // more than decoding them.
            guard let enumType = type as? any RawRepresentable.Type else {
                throw DecodingError.dataCorrupted(context)
            }
            let text = node.scalar?.string ?? ""
            var message = "'\(text)' is not an accepted value"
            if let choices = enumType as? any (CaseIterable & RawRepresentable).Type {
                message += "; expected one of: \(Self.caseNames(choices).joined(separator: ", "))"
            }
            throw failure(message, at: node)
        }
    }

    private static func caseNames<E: CaseIterable & RawRepresentable>(_ type: E.Type) -> [String] {
        E.allCases.map { "\($0.rawValue)" }
    }

    func scalarText(expecting what: String) throws -> String {
        guard let scalar = node.scalar else {
            throw failure("expected \(what), found \(node.kindName)", at: node)
        }
        return scalar.string
    }
}

private struct NodeKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let decoder: YAMLNodeDecoder
    let mapping: Node.Mapping
    let path: String
    let entries: [(key: String, keyNode: Node, value: Node)]

    init(decoder: YAMLNodeDecoder, mapping: Node.Mapping) {
        self.decoder = decoder
        self.mapping = mapping
        self.path = renderPath(decoder.codingPath)
        self.entries = mapping.compactMap { pair in pair.key.scalar.map { ($0.string, pair.key, pair.value) } }
        decoder.ledger.register(mapping, path: path)
    }

    var codingPath: [any CodingKey] { decoder.codingPath }

    var allKeys: [Key] {
        entries.compactMap { entry in
            let key = Key(stringValue: entry.key)
            if key != nil { decoder.ledger.ask(entry.key, path: path) }
            return key == nil || isLeftOut(entry.key) ? nil : key
        }
    }

    /// Whether the value of `key` was left out after a problem.
    private func isLeftOut(_ key: String) -> Bool {
        !decoder.ledger.masked.isEmpty
            && decoder.ledger.masked.contains(renderPath(codingPath + [AnyCodingKey(stringValue: key)]))
    }

    private func value(for key: Key) -> Node? {
        decoder.ledger.ask(key.stringValue, path: path)
        guard !isLeftOut(key.stringValue) else { return nil }
        return entries.first { $0.key == key.stringValue }?.value
    }

    private func required(_ key: Key) throws -> Node {
        guard let node = value(for: key) else {
            let keyPath = codingPath + [AnyCodingKey(stringValue: key.stringValue)]
            if !decoder.ledger.standIns.isEmpty, let standIn = decoder.ledger.standIns[renderPath(keyPath)] {
                return standIn
            }
            let where_ = path.isEmpty ? "" : " in \(path)"
            throw NodeDecodingFailure(
                problems: [
                    ConfigProblem(
                        "missing key '\(key.stringValue)'\(where_)", at: decoder.location(.mapping(mapping)))
                ], path: codingPath, missingKey: key.stringValue)
        }
        return node
    }

    func contains(_ key: Key) -> Bool { value(for: key) != nil }

    func decodeNil(forKey key: Key) throws -> Bool { value(for: key)?.isNull ?? true }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try decoder.child(try required(key), key: key).decodeValue(type)
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        try decoder.child(try required(key), key: key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try decoder.child(try required(key), key: key).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder { decoder }

    func superDecoder(forKey key: Key) throws -> any Decoder { decoder.child(try required(key), key: key) }
}

private struct NodeUnkeyedContainer: UnkeyedDecodingContainer {
    let decoder: YAMLNodeDecoder
    let nodes: [Node]
    var currentIndex = 0

    init(decoder: YAMLNodeDecoder, nodes: [Node]) {
        self.decoder = decoder
        self.nodes = nodes
    }

    var codingPath: [any CodingKey] { decoder.codingPath }
    var count: Int? { nodes.count }
    var isAtEnd: Bool { currentIndex >= nodes.count }

    private mutating func next() throws -> YAMLNodeDecoder {
        guard !isAtEnd else { throw decoder.failure("the list has too few items", at: decoder.node) }
        defer { currentIndex += 1 }
        return decoder.child(nodes[currentIndex], key: AnyCodingKey(intValue: currentIndex))
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, nodes[currentIndex].isNull else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try next().decodeValue(type) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
        -> KeyedDecodingContainer<NestedKey>
    { try next().container(keyedBy: type) }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer { try next().unkeyedContainer() }

    mutating func superDecoder() throws -> any Decoder { try next() }
}

private struct NodeSingleValueContainer: SingleValueDecodingContainer {
    let decoder: YAMLNodeDecoder
    var codingPath: [any CodingKey] { decoder.codingPath }

    func decodeNil() -> Bool { decoder.node.isNull }

    func decode(_ type: Bool.Type) throws -> Bool {
        let text = try decoder.scalarText(expecting: "true or false")
        switch text.lowercased() {
        case "true", "yes", "on": return true
        case "false", "no", "off": return false
        default: throw decoder.failure("expected true or false, found '\(text)'", at: decoder.node)
        }
    }

    func decode(_ type: String.Type) throws -> String {
        if decoder.node.isNull { throw decoder.failure("expected a string, found null", at: decoder.node) }
        return try decoder.scalarText(expecting: "a string")
    }

    func decode(_ type: Double.Type) throws -> Double {
        let text = try decoder.scalarText(expecting: "a number")
        guard let value = Double(text) else {
            throw decoder.failure("expected a number, found '\(text)'", at: decoder.node)
        }
        return value
    }

    func decode(_ type: Float.Type) throws -> Float { Float(try decode(Double.self)) }

    private func integer<T: FixedWidthInteger>(_ type: T.Type) throws -> T {
        let text = try decoder.scalarText(expecting: "an integer")
        // `1_000` is YAML's 1000; filtered in Swift, as Foundation's `replacingOccurrences`
        // goes through NSString, whose first use scans the program's conformance records.
        guard let value = T(text.utf8.contains(UInt8(ascii: "_")) ? text.filter { $0 != "_" } : text) else {
            throw decoder.failure("expected an integer, found '\(text)'", at: decoder.node)
        }
        return value
    }

    func decode(_ type: Int.Type) throws -> Int { try integer(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try integer(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try integer(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try integer(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try integer(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try integer(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(type) }

    func decode<T: Decodable>(_ type: T.Type) throws -> T { try decoder.decodeValue(type) }
}

/// Suggestions for misspelt names.
enum Spelling {
    /// The candidate nearest to `word` by edit distance, if it is close enough to be a typo.
    static func nearest(to word: String, in candidates: [String]) -> String? {
        let scored = candidates.map { ($0, distance(word.lowercased(), $0.lowercased())) }
        guard let best = scored.min(by: { $0.1 < $1.1 }) else { return nil }
        return best.1 <= max(1, min(word.count, best.0.count) / 3) ? best.0 : nil
    }

    /// The edit distance between `a` and `b`, counting a swap of two neighbours (`ulr` for
    /// `url`, `retires` for `retries`) as one edit, like an insertion or a deletion.
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var beforePrevious = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], beforePrevious[j - 2] + 1)
                }
            }
            beforePrevious = previous
            previous = current
        }
        return previous[b.count]
    }
}

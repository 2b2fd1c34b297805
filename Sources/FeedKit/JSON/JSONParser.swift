import Foundation

/// A JSON text that could not be parsed, with where.
public struct JSONParseError: Error, Sendable, CustomStringConvertible {
    /// Byte offset of the problem.
    public var offset: Int
    /// The 1-based line of the problem.
    public var line: Int
    /// The 1-based column of the problem, in characters.
    public var column: Int
    /// What is wrong at that place.
    public var message: String

    /// The message with its line and column, as a ``PayloadError`` quotes it.
    public var description: String { "invalid JSON at line \(line), column \(column): \(message)" }
}

/// A strict RFC 8259 parser into ``JSONValue``.
///
/// Numbers keep their literal text; strings must be valid UTF-8; nesting is limited (512 levels)
/// so a hostile document cannot exhaust the stack.
public struct JSONParser {
    /// The deepest nesting of arrays and objects parsed; a deeper document is an error.
    public static let maximumDepth = 512

    /// Parses `data`, which must hold exactly one JSON value (surrounding whitespace allowed).
    public static func parse(_ data: Data) throws(JSONParseError) -> JSONValue {
        try withBytes(of: data) { (buffer) throws(JSONParseError) -> JSONValue in
            var parser = JSONParser(bytes: buffer)
            parser.skipWhitespace()
            let value = try parser.parseValue(depth: 0)
            parser.skipWhitespace()
            guard parser.index == buffer.count else { throw parser.error("unexpected text after the JSON value") }
            return value
        }
    }

    /// Parses a string.
    public static func parse(_ text: String) throws(JSONParseError) -> JSONValue { try parse(Data(text.utf8)) }

    /// Parses `data` but leaves out the elements of the array at `path` (member names from the
    /// root; empty for a top-level array): that array comes back as as many `null`s as it has
    /// elements, their structure followed but not built (strings inside them are not re-checked
    /// for UTF-8 or control characters).
    ///
    /// For reading what a page says about pagination, or how many records it holds, without
    /// paying for the records themselves: the engine's cached bodies were fully parsed when
    /// they were first mapped.
    public static func parse(_ data: Data, elidingElementsAt path: [String]) throws(JSONParseError) -> JSONValue {
        try withBytes(of: data) { (buffer) throws(JSONParseError) -> JSONValue in
            var parser = JSONParser(bytes: buffer)
            parser.skipWhitespace()
            let value = try parser.parseValue(depth: 0, eliding: path[...])
            parser.skipWhitespace()
            guard parser.index == buffer.count else { throw parser.error("unexpected text after the JSON value") }
            return value
        }
    }

    /// Parses `data` and hands each element of the array at `path` (member names from the root;
    /// empty for a top-level array) to `visit` as soon as it is read, with its index, instead of
    /// keeping it: that array comes back empty. A caller that maps each element and lets it go
    /// never holds the whole array of parsed values, only the body and what it made of them.
    ///
    /// - Returns: the document, and how many elements were handed over; `nil` when `path` led
    ///   to no array (then nothing was handed over, and the value at `path`, if any, is in the
    ///   document as usual).
    public static func parse(
        _ data: Data, visitingElementsAt path: [String], _ visit: (Int, JSONValue) -> Void
    ) throws(JSONParseError) -> (document: JSONValue, visited: Int?) {
        var visited: Int?
        let document = try withoutActuallyEscaping(visit) { (visit) throws(JSONParseError) -> JSONValue in
            try withBytes(of: data) { (buffer) throws(JSONParseError) -> JSONValue in
                var parser = JSONParser(bytes: buffer)
                parser.visitor = visit
                parser.skipWhitespace()
                let value = try parser.parseValue(depth: 0, eliding: path[...])
                parser.skipWhitespace()
                guard parser.index == buffer.count else { throw parser.error("unexpected text after the JSON value") }
                visited = parser.visited
                return value
            }
        }
        return (document, visited)
    }

    /// Runs `body` on the bytes of `data` where they are, without copying them: a response's
    /// body is parsed in place, so a large one is in memory once, not twice.
    private static func withBytes(
        of data: Data, _ body: (UnsafeBufferPointer<UInt8>) throws(JSONParseError) -> JSONValue
    ) throws(JSONParseError) -> JSONValue {
        let result = data.withUnsafeBytes { raw -> Result<JSONValue, JSONParseError> in
            do throws(JSONParseError) {
                return .success(try body(raw.bindMemory(to: UInt8.self)))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0
    /// The members and elements of the objects and arrays being read (``ScratchStack``).
    private let members = ScratchStack<(key: String, value: JSONValue)>()
    private let elements = ScratchStack<JSONValue>()
    /// Who takes the elements of the array at the parse's path, one at a time
    /// (``parse(_:visitingElementsAt:_:)``); `nil` when they are counted instead.
    private var visitor: ((Int, JSONValue) -> Void)?
    /// How many elements ``visitor`` took, once the array at the path was read.
    private var visited: Int?

    private init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    private func error(_ message: String) -> JSONParseError {
        var line = 1
        var column = 1
        for position in 0..<min(index, bytes.count) {
            if bytes[position] == 0x0A {
                line += 1
                column = 1
            } else if bytes[position] & 0xC0 != 0x80 {
                column += 1
            }
        }
        return JSONParseError(offset: index, line: line, column: column, message: message)
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return
            }
        }
    }

    /// Parses a value; `eliding` is what remains of the path of an array to leave out, if this
    /// value is on it.
    private mutating func parseValue(depth: Int, eliding: ArraySlice<String>? = nil) throws(JSONParseError) -> JSONValue
    {
        guard index < bytes.count else {
            throw error(bytes.isEmpty ? "the body is empty" : "unexpected end of the document")
        }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject(depth: depth + 1, eliding: eliding)
        case UInt8(ascii: "["):
            if let eliding, eliding.isEmpty {
                guard let visitor else { return try countArray(depth: depth + 1) }
                // A second array at the path (a repeated member) is built as usual.
                if visited == nil { return try visitArray(depth: depth + 1, visitor) }
            }
            return try parseArray(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): return try literal("true", .bool(true))
        case UInt8(ascii: "f"): return try literal("false", .bool(false))
        case UInt8(ascii: "n"): return try literal("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default: throw error("unexpected character '\(Character(Unicode.Scalar(bytes[index])))'")
        }
    }

    private mutating func literal(_ word: StaticString, _ value: JSONValue) throws(JSONParseError) -> JSONValue {
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count else { throw error("unexpected end of the document") }
        for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] {
            throw error("invalid literal")
        }
        index += count
        return value
    }

    private mutating func parseObject(depth: Int, eliding: ArraySlice<String>? = nil) throws(JSONParseError)
        -> JSONValue
    {
        guard try enter(depth: depth, closedBy: UInt8(ascii: "}")) else { return .object(JSONObject([])) }
        let start = members.count
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw error("expected a member name") }
            let key = try parseString()
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw error("expected ':'") }
            index += 1
            skipWhitespace()
            let childEliding = eliding.flatMap { $0.first == key ? $0.dropFirst() : nil }
            members.push((key, try parseValue(depth: depth, eliding: childEliding)))
            guard try another(closedBy: UInt8(ascii: "}")) else { return .object(JSONObject(members.pop(from: start))) }
        }
    }

    private mutating func parseArray(depth: Int) throws(JSONParseError) -> JSONValue {
        guard try enter(depth: depth, closedBy: UInt8(ascii: "]")) else { return .array([]) }
        let start = elements.count
        while true {
            skipWhitespace()
            elements.push(try parseValue(depth: depth))
            guard try another(closedBy: UInt8(ascii: "]")) else { return .array(elements.pop(from: start)) }
        }
    }

    /// An array whose elements are handed to `visit` one at a time as they are read: empty.
    private mutating func visitArray(depth: Int, _ visit: (Int, JSONValue) -> Void) throws(JSONParseError)
        -> JSONValue
    {
        guard try enter(depth: depth, closedBy: UInt8(ascii: "]")) else {
            visited = 0
            return .array([])
        }
        var count = 0
        while true {
            skipWhitespace()
            visit(count, try parseValue(depth: depth))
            count += 1
            guard try another(closedBy: UInt8(ascii: "]")) else {
                visited = count
                return .array([])
            }
        }
    }

    /// An array whose elements are checked and counted but not built: `count` nulls.
    private mutating func countArray(depth: Int) throws(JSONParseError) -> JSONValue {
        var count = 0
        guard try enter(depth: depth, closedBy: UInt8(ascii: "]")) else { return .array([]) }
        while true {
            skipWhitespace()
            try skipValue(depth: depth)
            count += 1
            guard try another(closedBy: UInt8(ascii: "]")) else { return .array(Array(repeating: .null, count: count)) }
        }
    }

    /// Moves past the `{` or `[` of a container at `depth`; returns `false` when `close` follows
    /// at once (an empty container, also moved past).
    @inline(__always)
    private mutating func enter(depth: Int, closedBy close: UInt8) throws(JSONParseError) -> Bool {
        guard depth <= Self.maximumDepth else { throw error("nested more than \(Self.maximumDepth) levels deep") }
        index += 1
        skipWhitespace()
        guard index < bytes.count, bytes[index] == close else { return true }
        index += 1
        return false
    }

    /// After an element: moves past a `,` and returns `true` (another element follows), or
    /// past `close` and returns `false`.
    @inline(__always)
    private mutating func another(closedBy close: UInt8) throws(JSONParseError) -> Bool {
        skipWhitespace()
        guard index < bytes.count else { throw error("unexpected end of the document") }
        if bytes[index] == UInt8(ascii: ",") {
            index += 1
            return true
        }
        guard bytes[index] == close else { throw error("expected ',' or '\(Character(Unicode.Scalar(close)))'") }
        index += 1
        return false
    }

    /// Moves past one value, checking its syntax, without building it.
    private mutating func skipValue(depth: Int) throws(JSONParseError) {
        guard index < bytes.count else { throw error("unexpected end of the document") }
        switch bytes[index] {
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            let close = bytes[index] == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]")
            let isObject = close == UInt8(ascii: "}")
            guard try enter(depth: depth + 1, closedBy: close) else { return }
            while true {
                skipWhitespace()
                if isObject {
                    guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                        throw error("expected a member name")
                    }
                    try skipString()
                    skipWhitespace()
                    guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw error("expected ':'") }
                    index += 1
                    skipWhitespace()
                }
                try skipValue(depth: depth + 1)
                guard try another(closedBy: close) else { return }
            }
        case UInt8(ascii: "\""): try skipString()
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try skipNumber()
        default: _ = try parseValue(depth: depth)
        }
    }

    /// Moves past a string, jumping from quote to quote.
    private mutating func skipString() throws(JSONParseError) {
        index += 1
        guard let base = bytes.baseAddress else { throw error("unterminated string") }
        while index < bytes.count {
            guard let found = memchr(base + index, Int32(UInt8(ascii: "\"")), bytes.count - index) else { break }
            let quote = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
            // The quote ends the string unless an odd number of backslashes precede it.
            var backslashes = 0
            while quote - backslashes - 1 >= index, bytes[quote - backslashes - 1] == UInt8(ascii: "\\") {
                backslashes += 1
            }
            index = quote + 1
            if backslashes % 2 == 0 { return }
        }
        throw error("unterminated string")
    }

    /// Moves past a number, checking its digits, without making its text.
    private mutating func skipNumber() throws(JSONParseError) {
        let start = index
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."),
                UInt8(ascii: "e"), UInt8(ascii: "E"):
                index += 1
            default:
                guard index > start else { throw error("invalid number") }
                return
            }
        }
    }

    private mutating func parseNumber() throws(JSONParseError) -> String {
        let start = index
        func digits() -> Int {
            let begin = index
            while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 { index += 1 }
            return index - begin
        }
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count else { throw error("incomplete number") }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
        } else if digits() == 0 {
            throw error("invalid number")
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard digits() > 0 else { throw error("expected digits after '.'") }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            guard digits() > 0 else { throw error("expected digits in the exponent") }
        }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
    }

    private mutating func parseString() throws(JSONParseError) -> String {
        index += 1
        let start = index
        // Fast path: no escapes; ASCII text needs no UTF-8 validation.
        var ascii = true
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let slice = UnsafeBufferPointer(rebasing: bytes[start..<index])
                index += 1
                if ascii { return String(decoding: slice, as: UTF8.self) }
                guard let text = String(validating: slice, as: UTF8.self) else {
                    throw error("invalid UTF-8 in a string")
                }
                return text
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw error("control character in a string") }
            ascii = ascii && byte < 0x80
            index += 1
        }
        var buffer = [UInt8](UnsafeBufferPointer(rebasing: bytes[start..<index]))
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                guard let text = String(validating: buffer, as: UTF8.self) else {
                    throw error("invalid UTF-8 in a string")
                }
                return text
            case UInt8(ascii: "\\"):
                index += 1
                guard index < bytes.count else { throw error("unterminated string") }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""): buffer.append(0x22)
                case UInt8(ascii: "\\"): buffer.append(0x5C)
                case UInt8(ascii: "/"): buffer.append(0x2F)
                case UInt8(ascii: "b"): buffer.append(0x08)
                case UInt8(ascii: "f"): buffer.append(0x0C)
                case UInt8(ascii: "n"): buffer.append(0x0A)
                case UInt8(ascii: "r"): buffer.append(0x0D)
                case UInt8(ascii: "t"): buffer.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try hex4()
                    if (0xD800..<0xDC00).contains(scalar) {
                        guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"),
                            bytes[index + 1] == UInt8(ascii: "u")
                        else { throw error("unpaired surrogate") }
                        index += 2
                        let low = try hex4()
                        guard (0xDC00..<0xE000).contains(low) else { throw error("unpaired surrogate") }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    } else if (0xDC00..<0xE000).contains(scalar) {
                        throw error("unpaired surrogate")
                    }
                    guard let unicode = Unicode.Scalar(scalar) else { throw error("invalid \\u escape") }
                    buffer.append(contentsOf: Array(String(Character(unicode)).utf8))
                default: throw error("invalid escape '\\\(Character(Unicode.Scalar(escape)))'")
                }
            default:
                if byte < 0x20 { throw error("control character in a string") }
                buffer.append(byte)
                index += 1
            }
        }
        throw error("unterminated string")
    }

    private mutating func hex4() throws(JSONParseError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw error("incomplete \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt32
            switch byte {
            case 0x30...0x39: digit = UInt32(byte - 0x30)
            case 0x41...0x46: digit = UInt32(byte - 0x41 + 10)
            case 0x61...0x66: digit = UInt32(byte - 0x61 + 10)
            default: throw error("invalid \\u escape")
            }
            value = value * 16 + digit
            index += 1
        }
        return value
    }
}

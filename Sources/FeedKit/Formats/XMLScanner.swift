/// The reading of one XML document's UTF-8 bytes into its ``JSONValue`` tree, for
/// ``XMLReader``.
///
/// Elements under construction are kept on an explicit stack, so a deeply nested document
/// cannot overflow the call stack while it is read; its nesting is bounded all the same
/// (``XMLReader/maximumDepth``), since the tree it builds is walked, and freed, recursively.
struct XMLScanner {
    private let bytes: [UInt8]
    private var index = 0

    init(bytes: [UInt8]) { self.bytes = bytes }

    /// The whole document: prolog, one root element, and what may follow it.
    mutating func document() throws(XMLReadError) -> JSONValue {
        var open: [XMLElementBuilder] = []
        var root: (name: String, value: JSONValue)?
        while index < bytes.count {
            if bytes[index] != UInt8(ascii: "<") {
                let text = try readText()
                if open.isEmpty {
                    guard text.allSatisfy(\.isXMLWhitespace) else {
                        throw error("text outside the root element")
                    }
                } else {
                    open[open.count - 1].text += text
                }
                continue
            }
            if matches("<!--") {
                try skip(past: "-->", what: "a comment")
            } else if matches("<![CDATA[") {
                guard !open.isEmpty else { throw error("CDATA outside the root element") }
                index += 9
                let start = index
                try skip(past: "]]>", what: "a CDATA section")
                open[open.count - 1].text += String(decoding: bytes[start..<(index - 3)], as: UTF8.self)
            } else if matches("<?") {
                try skip(past: "?>", what: "a processing instruction")
            } else if matches("<!DOCTYPE") {
                try skipDoctype()
            } else if matches("</") {
                let tagStart = index
                index += 2
                let name = try readName()
                skipWhitespace()
                try expect(">")
                guard let element = open.popLast() else {
                    throw error("'</\(name)>' closes no element", at: tagStart)
                }
                guard element.qualifiedName == name else {
                    throw error("'</\(name)>' closes '<\(element.qualifiedName)>'", at: tagStart)
                }
                let value = element.value
                if open.isEmpty {
                    root = (element.name, value)
                } else {
                    open[open.count - 1].add(element.name, value)
                }
            } else {
                guard open.isEmpty == false || root == nil else { throw error("a second root element") }
                let tagStart = index
                index += 1
                var element = XMLElementBuilder(qualifiedName: try readName())
                let closed = try readAttributes(into: &element)
                if closed {
                    if open.isEmpty {
                        root = (element.name, element.value)
                    } else {
                        open[open.count - 1].add(element.name, element.value)
                    }
                } else {
                    guard open.count < XMLReader.maximumDepth else {
                        throw error("elements nested more than \(XMLReader.maximumDepth) levels deep", at: tagStart)
                    }
                    open.append(element)
                }
            }
        }
        if let unclosed = open.last { throw error("'<\(unclosed.qualifiedName)>' is not closed") }
        guard let root else { throw error("the document has no element") }
        return .object(JSONObject([(root.name, root.value)]))
    }

    /// Reads attributes up to `>` or `/>`; returns whether the tag closed itself.
    private mutating func readAttributes(into element: inout XMLElementBuilder) throws(XMLReadError) -> Bool {
        while true {
            let hadSpace = skipWhitespace()
            guard index < bytes.count else { throw error("the tag '<\(element.qualifiedName)' is not closed") }
            if matches("/>") {
                index += 2
                return true
            }
            if bytes[index] == UInt8(ascii: ">") {
                index += 1
                return false
            }
            guard hadSpace else { throw error("expected white space, '>' or '/>'") }
            let name = try readName()
            skipWhitespace()
            try expect("=")
            skipWhitespace()
            let value = try readQuoted()
            element.addAttribute(name, value)
        }
    }

    /// A quoted attribute value, references decoded and white space characters made spaces.
    private mutating func readQuoted() throws(XMLReadError) -> String {
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'") else {
            throw error("expected a quoted attribute value")
        }
        let quote = bytes[index]
        index += 1
        var value: [UInt8] = []
        while index < bytes.count, bytes[index] != quote {
            switch bytes[index] {
            case UInt8(ascii: "&"): value += try readReference()
            case UInt8(ascii: "<"): throw error("'<' in an attribute value")
            case 0x09, 0x0A, 0x0D:
                value.append(UInt8(ascii: " "))
                index += 1
            default:
                value.append(bytes[index])
                index += 1
            }
        }
        guard index < bytes.count else { throw error("an attribute value is not closed") }
        index += 1
        return String(decoding: value, as: UTF8.self)
    }

    /// Character data up to the next `<`, references decoded.
    private mutating func readText() throws(XMLReadError) -> String {
        var text: [UInt8] = []
        while index < bytes.count, bytes[index] != UInt8(ascii: "<") {
            if bytes[index] == UInt8(ascii: "&") {
                text += try readReference()
            } else {
                text.append(bytes[index])
                index += 1
            }
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// An entity or character reference at `&`, decoded.
    private mutating func readReference() throws(XMLReadError) -> [UInt8] {
        let start = index
        index += 1
        while index < bytes.count, bytes[index] != UInt8(ascii: ";"), index - start < 12 { index += 1 }
        guard index < bytes.count, bytes[index] == UInt8(ascii: ";") else {
            index = start
            throw error("'&' starts no reference (write '&amp;' for '&')")
        }
        let name = String(decoding: bytes[(start + 1)..<index], as: UTF8.self)
        index += 1
        switch name {
        case "lt": return [UInt8(ascii: "<")]
        case "gt": return [UInt8(ascii: ">")]
        case "amp": return [UInt8(ascii: "&")]
        case "quot": return [UInt8(ascii: "\"")]
        case "apos": return [UInt8(ascii: "'")]
        default:
            let code: UInt32? =
                if name.hasPrefix("#x") { UInt32(name.dropFirst(2), radix: 16) } else if name.hasPrefix("#") {
                    UInt32(name.dropFirst(), radix: 10)
                } else { nil }
            guard let code, let scalar = Unicode.Scalar(code), code != 0 else {
                index = start
                throw error(
                    "the reference '&\(name);' is not one XML defines (entities a DOCTYPE declares are not read)")
            }
            return Array(String(Character(scalar)).utf8)
        }
    }

    /// A name: up to white space, `/`, `>`, `=`.
    private mutating func readName() throws(XMLReadError) -> String {
        let start = index
        while index < bytes.count {
            let byte = bytes[index]
            if byte.isXMLWhitespace || byte == UInt8(ascii: "/") || byte == UInt8(ascii: ">")
                || byte == UInt8(ascii: "=") || byte == UInt8(ascii: "<")
            {
                break
            }
            index += 1
        }
        guard index > start else { throw error("expected a name") }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    /// Skips a DOCTYPE, with its internal subset in brackets.
    private mutating func skipDoctype() throws(XMLReadError) {
        var depth = 0
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "["): depth += 1
            case UInt8(ascii: "]"): depth -= 1
            case UInt8(ascii: ">") where depth == 0:
                index += 1
                return
            default: break
            }
            index += 1
        }
        throw error("the DOCTYPE is not closed")
    }

    @discardableResult
    private mutating func skipWhitespace() -> Bool {
        let start = index
        while index < bytes.count, bytes[index].isXMLWhitespace { index += 1 }
        return index > start
    }

    private mutating func skip(past end: String, what: String) throws(XMLReadError) {
        let start = index
        let terminator = Array(end.utf8)
        while index < bytes.count {
            if bytes[index] == terminator[0], bytes[index...].starts(with: terminator) {
                index += terminator.count
                return
            }
            index += 1
        }
        index = start
        throw error("\(what) is not closed (no '\(end)')")
    }

    private func matches(_ text: StaticString) -> Bool {
        let count = text.utf8CodeUnitCount
        guard index + count <= bytes.count else { return false }
        return text.withUTF8Buffer { bytes[index..<(index + count)].elementsEqual($0) }
    }

    private mutating func expect(_ character: Character) throws(XMLReadError) {
        guard index < bytes.count, bytes[index] == character.asciiValue else { throw error("expected '\(character)'") }
        index += 1
    }

    /// An error at `position` (the current one by default), with its line and column.
    private func error(_ message: String, at position: Int? = nil) -> XMLReadError {
        let end = min(position ?? index, bytes.count)
        var line = 1
        var lineStart = 0
        for offset in 0..<end where bytes[offset] == 0x0A {
            line += 1
            lineStart = offset + 1
        }
        let column = String(decoding: bytes[lineStart..<end], as: UTF8.self).count + 1
        return XMLReadError(line: line, column: column, message: message)
    }
}

/// An element whose end tag has not been read yet.
struct XMLElementBuilder {
    let qualifiedName: String
    private var attributes: [(key: String, value: JSONValue)] = []
    /// Child element names in the order they first appear, and each name's values.
    private var order: [String] = []
    private var children: [String: [JSONValue]] = [:]
    var text = ""

    init(qualifiedName: String) { self.qualifiedName = qualifiedName }

    /// The name without its namespace prefix.
    var name: String { Self.localName(qualifiedName) }

    mutating func addAttribute(_ qualifiedName: String, _ value: String) {
        guard qualifiedName != "xmlns", !qualifiedName.hasPrefix("xmlns:") else { return }
        attributes.append(("@" + Self.localName(qualifiedName), .string(value)))
    }

    mutating func add(_ name: String, _ value: JSONValue) {
        if children[name] == nil { order.append(name) }
        children[name, default: []].append(value)
    }

    /// The element as a value: its text alone, or an object of attributes, children and `#text`.
    var value: JSONValue {
        let trimmed = text.trimmingXMLWhitespace
        guard !attributes.isEmpty || !order.isEmpty else { return trimmed.isEmpty ? .null : .string(trimmed) }
        var members = attributes
        for name in order {
            let values = children[name] ?? []
            members.append((name, values.count == 1 ? values[0] : .array(values)))
        }
        if !trimmed.isEmpty { members.append(("#text", .string(trimmed))) }
        return .object(JSONObject(members))
    }

    static func localName(_ name: String) -> String {
        guard let colon = name.lastIndex(of: ":") else { return name }
        return String(name[name.index(after: colon)...])
    }
}

extension UInt8 {
    /// XML's white space: space, tab, line feed, carriage return.
    var isXMLWhitespace: Bool { self == 0x20 || self == 0x09 || self == 0x0A || self == 0x0D }
}

extension Character {
    fileprivate var isXMLWhitespace: Bool {
        self == " " || self == "\t" || self == "\n" || self == "\r\n" || self == "\r"
    }
}

extension String {
    /// The string without XML white space at either end.
    fileprivate var trimmingXMLWhitespace: String {
        let utf8 = self.utf8
        guard let first = utf8.firstIndex(where: { !$0.isXMLWhitespace }),
            let last = utf8.lastIndex(where: { !$0.isXMLWhitespace })
        else { return "" }
        return String(self[first...last])
    }
}

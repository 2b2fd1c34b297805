/// How deeply a YAML text nests, measured on the text before Yams composes it: Yams builds
/// (and frees) its tree of nodes recursively, so a document nested a few hundred thousand
/// levels deep (`[[[[...`, `- - - - ...`) would overflow the stack and end the process.
///
/// A level is a flow collection (`[` or `{` opening a value), a block indentation deeper than
/// the lines around it, or a compact sequence entry (`- - x`). Quoted scalars, comments and
/// the lines of block scalars (`|`, `>`) are not counted, nor a bracket inside a plain scalar
/// (`$.items[0]`). The count errs on the side of more
/// levels (a line's indentation and its `- ` both count), which only matters for a text near
/// the bound, far beyond any config.
enum YAMLNesting {
    /// The deepest nesting a YAML text may have.
    static let maximumDepth = 512

    /// The line and column (1-based, in characters) where `text` first nests deeper than
    /// `maximum` levels, or `nil` when it does not.
    static func tooDeep(_ text: String, maximum: Int = maximumDepth) -> (line: Int, column: Int)? {
        var scan = Scan(maximum: maximum)
        var line: [Unicode.Scalar] = []
        var number = 1
        for scalar in text.unicodeScalars {
            if scalar == "\n" {
                if let column = scan.read(line) { return (number, column) }
                line.removeAll(keepingCapacity: true)
                number += 1
            } else if scalar != "\r" {
                line.append(scalar)
            }
        }
        return scan.read(line).map { (number, $0) }
    }

    /// The state carried from one line to the next.
    private struct Scan {
        let maximum: Int
        /// The indentations of the block collections open at the current line.
        var indents: [Int] = []
        var flowDepth = 0
        /// The quote of a quoted scalar still open at the end of the last line.
        var quote: Unicode.Scalar?
        /// The indentation of the line that started a block scalar whose lines are being skipped.
        var blockScalarParent: Int?

        /// Reads one line; returns the 1-based column where it nests too deep, if it does.
        mutating func read(_ line: [Unicode.Scalar]) -> Int? {
            let indent = line.prefix { $0 == " " }.count
            let blank = line.allSatisfy { $0 == " " || $0 == "\t" }
            if let parent = blockScalarParent {
                if blank || indent > parent { return nil }
                blockScalarParent = nil
            }
            var index = indent
            var depth: Int
            if flowDepth == 0, quote == nil {
                if blank || line[indent] == "#" { return nil }
                while let last = indents.last, last >= indent { indents.removeLast() }
                indents.append(indent)
                depth = indents.count
                // Compact entries: each `- ` (or `? `) opens one more level on the same line.
                while index < line.count, line[index] == "-" || line[index] == "?",
                    index + 1 == line.count || line[index + 1] == " "
                {
                    depth += 1
                    if depth > maximum { return index + 1 }
                    index += 1
                    while index < line.count, line[index] == " " { index += 1 }
                }
            } else {
                depth = indents.count + flowDepth
            }
            if depth > maximum { return indent + 1 }
            let blockDepth = depth - flowDepth
            var plain = false
            var property = false
            var content: [Unicode.Scalar] = []
            while index < line.count {
                let character = line[index]
                let next = index + 1 < line.count ? line[index + 1] : " "
                defer { index += 1 }
                if let open = quote {
                    if open == "\"", character == "\\" {
                        index += 1
                    } else if character == open {
                        if open == "'", next == "'" { index += 1 } else { quote = nil }
                    }
                    continue
                }
                if character == " " || character == "\t" {
                    // An anchor (`&a`) or a tag (`!!seq`) ends at a space; a value follows it.
                    if property { (plain, property) = (false, false) }
                    continue
                }
                if character == "#", index == 0 || line[index - 1] == " " || line[index - 1] == "\t" { break }
                content.append(character)
                if plain {
                    // A plain scalar runs to `: ` (or, in a flow collection, to `,`, `]` or `}`).
                    if character == ":", next == " " || next == "\t" {
                        plain = false
                        continue
                    }
                    guard flowDepth > 0, character == "," || character == "]" || character == "}" else { continue }
                    plain = false
                }
                switch character {
                case "\"", "'": quote = character
                case "[", "{":
                    flowDepth += 1
                    if blockDepth + flowDepth > maximum { return index + 1 }
                case "]", "}": flowDepth = max(0, flowDepth - 1)
                case ",", ":", "-": break
                case "?" where next == " " || next == "\t": break
                default:
                    plain = true
                    property = character == "&" || character == "!"
                }
            }
            if flowDepth == 0, quote == nil, Self.startsBlockScalar(content) { blockScalarParent = indent }
            return nil
        }

        /// Whether a line's content (spaces and comment left out) ends with a block scalar's
        /// header: `key: |`, `- >-`, `|2`.
        static func startsBlockScalar(_ content: [Unicode.Scalar]) -> Bool {
            let indicators = "+-0123456789".unicodeScalars
            let header = content.reversed().drop { indicators.contains($0) }
            guard let style = header.first, style == "|" || style == ">" else { return false }
            let before = header.dropFirst().first
            return before == nil || before == ":" || before == "-" || before == "?"
        }
    }
}

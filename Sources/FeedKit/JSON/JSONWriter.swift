extension JSONValue {
    /// Compact JSON text of the value (numbers as their literal, keys in order), for a reject's
    /// raw JSON and for JSON columns.
    public var jsonText: String {
        var output = ""
        write(to: &output)
        return output
    }

    /// JSON text indented by two spaces a level, for people: like ``jsonText``, numbers as their
    /// literal and members in their order, so a record reads as it was written.
    public var indentedJSONText: String {
        var output = ""
        writeIndented(to: &output, depth: 0)
        return output
    }

    private func writeIndented(to output: inout String, depth: Int) {
        let inner = String(repeating: "  ", count: depth + 1)
        switch self {
        case .array(let items) where !items.isEmpty:
            output += "[\n"
            for (index, item) in items.enumerated() {
                output += (index > 0 ? ",\n" : "") + inner
                item.writeIndented(to: &output, depth: depth + 1)
            }
            output += "\n" + String(repeating: "  ", count: depth) + "]"
        case .object(let object) where !object.members.isEmpty:
            output += "{\n"
            for (index, member) in object.members.enumerated() {
                output += (index > 0 ? ",\n" : "") + inner
                JSONValue.writeString(member.key, to: &output)
                output += ": "
                member.value.writeIndented(to: &output, depth: depth + 1)
            }
            output += "\n" + String(repeating: "  ", count: depth) + "}"
        default:
            write(to: &output)
        }
    }

    func write(to output: inout String) {
        switch self {
        case .null: output += "null"
        case .bool(let flag): output += flag ? "true" : "false"
        case .number(let text): output += text
        case .string(let text): JSONValue.writeString(text, to: &output)
        case .array(let items):
            output += "["
            for (index, item) in items.enumerated() {
                if index > 0 { output += "," }
                item.write(to: &output)
            }
            output += "]"
        case .object(let object):
            output += "{"
            for (index, member) in object.members.enumerated() {
                if index > 0 { output += "," }
                JSONValue.writeString(member.key, to: &output)
                output += ":"
                member.value.write(to: &output)
            }
            output += "}"
        }
    }

    /// Appends `text` as a JSON string literal.
    public static func writeString(_ text: String, to output: inout String) {
        output += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: output.unicodeScalars.append(scalar)
            }
        }
        output += "\""
    }
}

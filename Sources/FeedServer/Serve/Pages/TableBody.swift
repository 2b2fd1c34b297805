/// The rows of an entity's table as HTML, written here rather than by the template: at 50 rows
/// of 15 columns Mustache's lookups took about 10 ms a page, this well under one. Every value
/// is escaped by ``escape(_:)``, as the template would (a found row's search columns by
/// ``SearchQuery/highlighted(_:)``, which marks the words found).
enum TableBody {
    /// `rows` as `<tr>` elements: each row's `cells` (``PageRoutes/cell(_:field:)``) and a link
    /// to its `record`.
    static func html(_ rows: [(cells: [[String: Any]], record: String)]) -> String {
        var html = ""
        html.reserveCapacity(rows.count * 1024)
        for row in rows {
            html += "<tr>"
            for cell in row.cells {
                html += "<td class=\"" + escape(cell["kind"] as? String ?? "") + "\">"
                if let marked = cell["html"] as? String {
                    // Built by ``SearchQuery/highlighted(_:)``, which escapes the text itself.
                    html += marked
                } else if let json = cell["json"] as? String, !json.isEmpty {
                    html += "<details><summary>" + escape(cell["short"] as? String ?? "") + "</summary><pre>"
                    html += escape(json) + "</pre></details>"
                } else {
                    html += escape(cell["text"] as? String ?? "")
                }
                html += "</td>"
            }
            html += "<td><a href=\"" + escape(row.record) + "\">record</a></td></tr>\n"
        }
        return html
    }

    /// `text` with `&`, `<`, `>`, `"` and `'` as character references, safe in an element and
    /// in a quoted attribute.
    static func escape(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 == 0x26 || $0 == 0x3C || $0 == 0x3E || $0 == 0x22 || $0 == 0x27 }) else {
            return text
        }
        var result = ""
        result.reserveCapacity(text.utf8.count + 16)
        for character in text.unicodeScalars {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            default: result.unicodeScalars.append(character)
            }
        }
        return result
    }
}

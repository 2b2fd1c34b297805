import FeedKit
import FeedStore

/// A read-only statement's result as serve's `/api/sql`, its downloads and `feedwork mcp`'s
/// `query_sql` write it.
public enum SQLResultText {
    /// `{"columns": [...], "rows": [[...]], "truncated": false, "row_limit": 1000}`: rows as
    /// arrays in the columns' order (two columns may share a name); `truncated_reason` follows
    /// `truncated` when the result is not whole.
    public static func json(_ result: ReadOnlySQLResult, rowLimit: Int) -> String {
        let columns = "[" + result.columns.map { JSONValue.string($0).jsonText }.joined(separator: ",") + "]"
        var text = "{\"columns\":\(columns),\"rows\":["
        for (index, row) in result.rows.enumerated() {
            text += (index > 0 ? "," : "") + "[" + row.map(Self.json).joined(separator: ",") + "]"
        }
        let reason = result.truncatedReason.map { ",\"truncated_reason\":" + JSONValue.string($0).jsonText } ?? ""
        return text + "],\"truncated\":\(result.truncated)\(reason),\"row_limit\":\(rowLimit)}\n"
    }

    private static func json(_ value: FieldValue) -> String {
        switch value {
        case .null: "null"
        case .integer(let number): String(number)
        case .real(let number): number.isFinite ? number.description : "null"
        case .bool(let flag): flag ? "true" : "false"
        case .text(let text): JSONValue.string(text).jsonText
        }
    }

    /// RFC 4180 CSV, as `feedwork export` writes it: a header of the column names, then the rows.
    public static func csv(_ result: ReadOnlySQLResult) -> String {
        var writer = CSVWriter(fields: result.columns.map { ExportField(name: $0, type: .text) })
        let output = ExportOutput.memory()
        do {
            try writer.begin(output)
            for row in result.rows { try writer.write(row, to: output) }
        } catch {
            // Memory output never fails to write.
        }
        return String(decoding: output.bytes, as: UTF8.self)
    }
}

import FeedKit
import FeedStore

extension StoreBrowser {
    /// Runs a person's `SELECT` or `WITH` statement read-only (serve's SQL page and
    /// `/api/sql`): on its own read-only connection, under the request's time and row limits,
    /// without the hidden system tables (``ReadOnlySQLPolicy``).
    ///
    /// - Throws: ``ReadOnlySQLError`` for anything wrong with the statement, its parameters or
    ///   its running time; the database's own message when it refused it.
    public func runReadOnly(_ request: ReadOnlySQLRequest) async throws(ReadOnlySQLError) -> ReadOnlySQLResult {
        try await store.runReadOnly(request)
    }

    /// The SQL of what `request` (an entity page's feeds, filters, sort and keyset order)
    /// shows, with its values written into it as literals, to open on the SQL page: the entity's
    /// fields from its table, the page's conditions, and its order.
    public func sqlText(for request: ExportRequest) async throws -> String {
        let query = try await exporter.query(for: request)
        let from = " FROM \(SQLIdentifier.quoted(query.table.name)) AS t"
        var sql = query.sql
        if let range = sql.range(of: from) {
            let columns = query.fields.filter { $0 != Keyset.tiebreakField }.map {
                "t." + SQLIdentifier.quoted($0.name)
            }
            .joined(separator: ", ")
            sql = "SELECT \(columns)" + sql[range.lowerBound...]
        }
        return Self.inlining(query.arguments, into: sql, allText: store.dialect.inlinesValuesAsText)
    }

    /// `sql` with its parameters (`?` in order, or `$1`, `$2`...) outside quotes replaced by
    /// `arguments` as SQL literals; with `allText` (PostgreSQL), every value as a quoted
    /// literal, which takes its column's type there as the parameter's text did.
    static func inlining(_ arguments: [FieldValue], into sql: String, allText: Bool) -> String {
        var result = ""
        var quote: Character?
        var next = 0
        var characters = sql[...]
        while let character = characters.popFirst() {
            if let open = quote {
                if character == open { quote = nil }
                result.append(character)
            } else if character == "'" || character == "\"" {
                quote = character
                result.append(character)
            } else if character == "?" {
                result += literal(next < arguments.count ? arguments[next] : .null, allText: allText)
                next += 1
            } else if character == "$", let first = characters.first, first.isASCII, first.isNumber {
                let digits = characters.prefix { $0.isASCII && $0.isNumber }
                characters = characters.dropFirst(digits.count)
                let index = (Int(digits) ?? 1) - 1
                result += literal(arguments.indices.contains(index) ? arguments[index] : .null, allText: allText)
            } else {
                result.append(character)
            }
        }
        return result
    }

    /// `value` as a SQL literal; with `allText`, a quoted one whatever its type.
    static func literal(_ value: FieldValue, allText: Bool) -> String {
        let text: String
        switch value {
        case .null: return "NULL"
        case .integer(let number): text = String(number)
        case .real(let number): text = number.isFinite ? number.description : "NULL"
        case .bool(let flag): text = flag ? "1" : "0"
        case .text(let value): return "'" + value.replacingOccurrences(of: "'", with: "''") + "'"
        }
        return allText ? "'" + text + "'" : text
    }
}

extension StoreBrowser {
    /// The system tables no statement of ``runReadOnly(_:)`` reads, by name.
    public static var hiddenSQLTables: [String] { ReadOnlySQLPolicy.hiddenTables.sorted() }

    /// The system tables a statement may read, by name.
    public static var openSystemTables: [String] {
        SystemTables.all.map(\.name).filter { !ReadOnlySQLPolicy.hiddenTables.contains($0) }.sorted()
    }
}

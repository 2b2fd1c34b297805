import FeedEngine
import FeedKit
import Foundation
import Hummingbird

/// `/sql`: a form for one read-only statement and its `:name` parameters (a GET form, so the
/// page's URL shares the statement), its rows as a table (every value escaped by the template),
/// and CSV and JSON downloads of the same result from `/api/sql`. The statement runs once every
/// parameter has a value; an error shows on the page, answered 400.
struct SQLPage: Sendable {
    let settings: ServeSettings

    func add(to router: Router<BasicRequestContext>) {
        router.get("/sql") { request, _ in try await page(try request.decodedQuery()) }
    }

    private func page(_ query: ServeQuery) async throws -> Response {
        if let refusal = settings.sqlRefusal { throw refusal }
        let browser = settings.browser
        let (statement, parameters) = ServeSettings.sqlQuery(query)
        let text = statement ?? ""
        let names = ReadOnlySQLStatement.parameterNames(in: text)
        let tables = try await ServeError.reading { try await browser.tables().map(\.name) }
        var context: [String: Any] = [
            "statement": text, "example": tables.first ?? "_runs",
            "parameters": names.map { ["name": $0, "value": parameters[$0] ?? ""] },
            "timeLimit": ReadOnlySQLRequest.text(ofLimit: settings.sql.timeLimit),
            "rowLimit": settings.sql.rowLimit.formatted(),
            "tables": (tables + StoreBrowser.openSystemTables).joined(separator: ", "),
            "hidden": StoreBrowser.hiddenSQLTables.joined(separator: ", "),
        ]
        var status = HTTPResponse.Status.ok
        let missing = names.filter { parameters[$0] == nil }
        if !text.allSatisfy(\.isWhitespace), missing.isEmpty {
            do throws(ServeError) {
                let result = try await settings.runSQL(try settings.sql.request(text, parameters: parameters))
                context["result"] = Self.resultContext(result, statement: text, names: names, parameters: parameters)
            } catch {
                context["error"] = error.message
                status = error.status
            }
        } else if !text.allSatisfy(\.isWhitespace) {
            context["missing"] = missing.map { ":" + $0 }.joined(separator: ", ")
        }
        let page = try Pages.render("sql", title: "SQL", store: browser.storeDescription, context)
        return Response(
            status: status, headers: [.contentType: "text/html; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(string: page)))
    }

    /// The rows and links of a result.
    private static func resultContext(
        _ result: ReadOnlySQLResult, statement: String, names: [String], parameters: [String: String]
    ) -> [String: Any] {
        let share =
            (["sql=" + URLText.encode(statement)]
            + names.map { "\(URLText.encode($0))=\(URLText.encode(parameters[$0] ?? ""))" }).joined(separator: "&")
        let count = result.rows.count
        return [
            "count":
                "\(count.formatted()) row\(count == 1 ? "" : "s")\(result.truncated ? " (cut)" : "")",
            "truncated": result.truncated, "truncatedReason": result.truncatedReason ?? "", "shareQuery": share,
            "csvQuery": share + "&format=csv",
            "jsonQuery": share + "&format=json", "columns": result.columns,
            "rows": result.rows.map { row in ["cells": row.map { ValueText.plain($0) ?? "" }] },
        ]
    }
}

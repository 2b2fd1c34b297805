import FeedEngine
import FeedKit
import Foundation
import Hummingbird

/// `GET /api/sql?sql=STATEMENT&NAME=VALUE...`: one read-only `SELECT` or `WITH` statement, its
/// `:NAME` parameters from the query string, as JSON (`format=json` as a download) or CSV
/// (`format=csv`). Every problem with the statement is a 400 with the database's message; a
/// server exposed beyond loopback without `--allow-sql` answers 403.
struct SQLRoutes: Sendable {
    let settings: ServeSettings

    func add(to router: Router<BasicRequestContext>) {
        router.get("/api/sql") { request, _ in
            if let refusal = settings.sqlRefusal { throw refusal }
            let query = try request.decodedQuery()
            let (statement, parameters) = ServeSettings.sqlQuery(query)
            guard let statement, !statement.allSatisfy(\.isWhitespace) else {
                throw ServeError.badRequest("give one SELECT or WITH statement as ?sql=")
            }
            let format = query["format"]
            guard format == nil || format == "json" || format == "csv" else {
                throw ServeError.badRequest("format '\(format ?? "")': expected json or csv")
            }
            let result = try await settings.runSQL(try settings.sql.request(statement, parameters: parameters))
            switch format {
            case "csv":
                return Self.download(SQLResultText.csv(result), type: "text/csv; charset=utf-8", name: "query.csv")
            case "json":
                return Self.download(
                    SQLResultText.json(result, rowLimit: settings.sql.rowLimit),
                    type: "application/json; charset=utf-8",
                    name: "query.json")
            default: return jsonResponse(SQLResultText.json(result, rowLimit: settings.sql.rowLimit))
            }
        }
    }

    /// `text` as a file to save.
    private static func download(_ text: String, type: String, name: String) -> Response {
        Response(
            status: .ok,
            headers: [.contentType: type, .contentDisposition: "attachment; filename=\"\(name)\""],
            body: .init(byteBuffer: ByteBuffer(string: text)))
    }
}

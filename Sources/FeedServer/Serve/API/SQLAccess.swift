import FeedEngine
import Hummingbird

/// How `feedwork serve` runs people's SQL (the SQL page and `/api/sql`): whether it may when
/// the server is reachable beyond loopback, and the limits every statement runs under.
public struct SQLAccess: Sendable {
    /// How long a statement runs before it is stopped, unless `--sql-time-limit` says otherwise.
    public static let defaultTimeLimit = ReadOnlySQLRequest.defaultTimeLimit
    /// The most rows a statement returns, unless `--sql-row-limit` says otherwise.
    public static let defaultRowLimit = ReadOnlySQLRequest.defaultRowLimit

    /// Whether SQL is on when the server listens beyond loopback (`--allow-sql`); on loopback
    /// it always is.
    public var allowedWhenExposed: Bool
    public var timeLimit: Duration
    public var rowLimit: Int

    public init(
        allowedWhenExposed: Bool = false, timeLimit: Duration = Self.defaultTimeLimit,
        rowLimit: Int = Self.defaultRowLimit
    ) {
        self.allowedWhenExposed = allowedWhenExposed
        self.timeLimit = timeLimit
        self.rowLimit = rowLimit
    }

    /// The query keys of `/sql` and `/api/sql` that are not a statement's parameters.
    static let reservedKeys: Set<String> = ["sql", "format", "token"]

    /// The request of `statement` with `parameters`, under these limits.
    func request(_ statement: String, parameters: [String: String]) throws(ServeError) -> ReadOnlySQLRequest {
        if let reserved = ReadOnlySQLStatement.parameterNames(in: statement).first(where: Self.reservedKeys.contains) {
            throw .badRequest(
                ":\(reserved): rename this parameter (sql, format and token are the URL's own keys)")
        }
        return ReadOnlySQLRequest(
            statement: statement, parameters: parameters, timeLimit: timeLimit, rowLimit: rowLimit)
    }
}

extension ServeSettings {
    /// Why SQL is off on this server, as its answer, or `nil` when it is on.
    var sqlRefusal: ServeError? {
        guard !address.isLoopback, !sql.allowedWhenExposed else { return nil }
        return ServeError(
            .forbidden,
            "SQL is off: this server listens on \(address.host), beyond loopback; start it with --allow-sql"
                + " to let whoever holds its token run read-only SQL")
    }

    /// Runs `request` (on a thread of its own), its errors as 400 answers with their message.
    func runSQL(_ request: ReadOnlySQLRequest) async throws(ServeError) -> ReadOnlySQLResult {
        do {
            return try await browser.runReadOnly(request)
        } catch {
            throw .badRequest(error.message)
        }
    }

    /// The statement and its parameters of a `/sql` or `/api/sql` request, from its decoded
    /// query: every key but the reserved ones is a parameter (the first value of a repeated key).
    static func sqlQuery(_ query: ServeQuery) -> (statement: String?, parameters: [String: String]) {
        var parameters: [String: String] = [:]
        for (key, value) in query.pairs where !SQLAccess.reservedKeys.contains(key) && parameters[key] == nil {
            parameters[key] = value
        }
        return (query["sql"], parameters)
    }
}

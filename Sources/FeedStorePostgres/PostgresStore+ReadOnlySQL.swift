import FeedKit
import FeedStore

extension PostgresStore {
    /// Runs a person's statement on a connection of its own (so a slow one never holds the
    /// pages' reads), in a `READ ONLY` transaction with `statement_timeout` set to the time
    /// limit, through a cursor fetched in batches (``PostgresReadOnlySQLFetch``) up to one row more than
    /// the limit, while the rows fit in the byte limit and the deadline has not passed; the
    /// transaction is rolled back and the connection closed after it.
    ///
    /// PostgreSQL has no authorizer: the statement was refused before it reached the server
    /// when it names a hidden table or a function that could reach one (``ReadOnlySQLPolicy``),
    /// and is refused before it runs when its plan reads one (through a view).
    package func runReadOnly(_ statement: ReadOnlySQLStatement, values: [String], _ request: ReadOnlySQLRequest)
        throws(ReadOnlySQLError) -> ReadOnlySQLResult
    {
        let milliseconds = max(
            1,
            request.timeLimit.components.seconds * 1000 + request.timeLimit.components.attoseconds
                / 1_000_000_000_000_000)
        let outcome: Outcome
        do {
            outcome = try run(statement.text, values.map(Optional.some), milliseconds: milliseconds, request)
        } catch {
            if error.sqlState == "57014" { throw .timeLimit(request.timeLimit) }
            throw ReadOnlySQLError(.database, Self.firstLine(error.message))
        }
        switch outcome {
        case .rows(let result): return result
        case .hidden(let table):
            throw ReadOnlySQLError(.refused, ReadOnlySQLPolicy.refusal(ofIdentifier: table, functions: false) ?? table)
        }
    }

    /// What a statement came to: its rows, or the hidden table its plan reads.
    private enum Outcome {
        case rows(ReadOnlySQLResult)
        case hidden(String)
    }

    /// Plans `text` first (a view's tables are in its plan, not in its text), then fetches its
    /// rows, in a `READ ONLY` transaction that is rolled back.
    private func run(_ text: String, _ values: [String?], milliseconds: Int64, _ request: ReadOnlySQLRequest)
        throws(PostgresError) -> Outcome
    {
        let connection = try PostgresConnection(url: url)
        try connection.execute("SET search_path TO \(PostgresSQL.identifier(schema))")
        try connection.execute("SET TIME ZONE 'UTC'")
        try connection.execute("BEGIN TRANSACTION READ ONLY")
        defer { _ = try? connection.execute("ROLLBACK") }
        try connection.execute("SET LOCAL statement_timeout = \(milliseconds)")
        try connection.execute("SET LOCAL idle_in_transaction_session_timeout = \(milliseconds * 2)")
        let plan = try connection.execute("EXPLAIN (VERBOSE, FORMAT JSON) " + text, values)
        if plan.count > 0, let json = plan[0, 0], let hidden = Self.hiddenRelation(inPlan: json) {
            return .hidden(hidden)
        }
        try connection.execute("DECLARE feedwork_sql NO SCROLL CURSOR FOR " + text, values)
        var fetch = PostgresReadOnlySQLFetch(ReadOnlySQLBudget(request))
        while let count = fetch.nextBatch() {
            try connection.execute("SET LOCAL statement_timeout = \(fetch.millisecondsLeft)")
            fetch.read(try connection.execute("FETCH FORWARD \(count) FROM feedwork_sql"), asked: count)
        }
        if fetch.budget.pastDeadline { throw PostgresError(location: "FETCH", message: "", sqlState: "57014") }
        return .rows(fetch.result)
    }

    /// A hidden table the plan of a statement reads (`EXPLAIN (FORMAT JSON)`'s `Relation
    /// Name`s), or `nil`: the scan of the statement's identifiers does not see a view's tables,
    /// the plan does.
    static func hiddenRelation(inPlan text: String) -> String? {
        guard let plan = try? JSONParser.parse(text) else { return nil }
        var pending = [plan]
        while let value = pending.popLast() {
            switch value {
            case .array(let items): pending += items
            case .object(let object):
                for (key, member) in object.members {
                    if key == "Relation Name", let name = member.stringValue,
                        ReadOnlySQLPolicy.hiddenTables.contains(name.lowercased())
                    {
                        return name
                    }
                    pending.append(member)
                }
            default: break
            }
        }
        return nil
    }

    /// The server's message without the position lines libpq adds (`LINE 1: ...`).
    private static func firstLine(_ message: String) -> String {
        let line = message.split(separator: "\n").first.map(String.init) ?? message
        return line.hasPrefix("ERROR:  ") ? String(line.dropFirst("ERROR:  ".count)) : line
    }
}

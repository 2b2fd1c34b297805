extension OpenAPIDocument {
    /// `/api/sql`: the statement, its format, and (not declarable one by one) a query key per
    /// `:name` parameter of the statement. Every problem with the statement is a 400.
    static let sqlPath = (
        "/api/sql",
        #"{"get":{"summary":"One read-only SELECT or WITH statement on the store, under serve's time limit (--sql-time-limit, for the whole answer) and row limit (--sql-row-limit); the response cache, state and outbox tables are hidden. Each :name parameter of the statement takes its value from the query key name (sql, format and token are reserved)","parameters":["#
            + #"{"name":"sql","in":"query","required":true,"description":"The statement","schema":{"type":"string"},"example":"SELECT name, history FROM _entities ORDER BY name"},"#
            + #"{"name":"format","in":"query","required":false,"description":"json (the default, inline), or a download: json or csv","schema":{"type":"string","enum":["json","csv"]}}],"#
            + #""responses":{"200":{"description":"columns, rows (arrays in the columns' order), truncated (not all of the result: more rows than row_limit or than 8 MiB of values, or a value longer than 256 KiB cut and marked …[cut: N bytes]), truncated_reason (why, in words; only when truncated), row_limit; or the same rows as CSV","content":{"application/json":{},"text/csv":{}}},"#
            + #""400":{"description":"Not one SELECT or WITH statement, a parameter without a value, a hidden table, a write, a syntax error or the time limit: {\"error\": the database's message}"},"#
            + #""401":{"description":"The server has a token and the request did not carry it"},"#
            + #""403":{"description":"SQL is off: the server listens beyond loopback without --allow-sql"},"#
            + #""405":{"description":"A method other than GET and HEAD (Allow: GET, HEAD)"},"#
            + #""414":{"description":"The request target is longer than 8 KiB"}}}}"#
    )
}

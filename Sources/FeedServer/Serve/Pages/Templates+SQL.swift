extension Templates {
    /// The SQL page: the statement's form (a field per `:name` parameter), then its rows, the
    /// downloads of the same result and a link that runs it again.
    static let sql = """
        <form method="get" action="/sql" id="sql-form">
        <textarea name="sql" id="sql-statement" rows="8" cols="100" spellcheck="false" placeholder="SELECT * FROM {{example}} WHERE _feed = :feed">{{statement}}</textarea>
        <p>{{#parameters}}<label class="sql-parameter">:{{name}} <input name="{{name}}" value="{{value}}" id="parameter-{{name}}"></label> {{/parameters}}
        <button type="submit" id="sql-run">Run</button></p></form>
        <p class="note" id="sql-limits">One SELECT or WITH statement, run read-only for at most {{timeLimit}}; the first {{rowLimit}} rows are shown. Write a parameter as :name and it gets a field.</p>
        {{#error}}<p class="error" id="sql-error">{{error}}</p>{{/error}}
        {{#missing}}<p class="note" id="sql-missing">Give a value for {{missing}}, then run.</p>{{/missing}}
        {{#result}}<p id="sql-summary"><span id="sql-count">{{count}}</span> · Download: <a class="download" id="sql-csv" href="/api/sql?{{csvQuery}}">CSV</a>
        <a class="download" id="sql-json" href="/api/sql?{{jsonQuery}}">JSON</a> · <a id="sql-link" href="/sql?{{shareQuery}}">link to this query</a></p>
        {{#truncated}}<p class="note" id="sql-truncated">Not all of the result is shown: {{truncatedReason}}.</p>{{/truncated}}
        <table class="rows" id="sql-rows"><thead><tr>{{#columns}}<th>{{.}}</th>{{/columns}}</tr></thead><tbody>
        {{#rows}}<tr>{{#cells}}<td>{{.}}</td>{{/cells}}</tr>{{/rows}}</tbody></table>{{/result}}
        <details id="sql-tables"><summary>Tables</summary><p>{{tables}}</p><p>Hidden from SQL: {{hidden}} (the response cache, the feeds' state and tokens, notification URLs).</p></details>
        """
}

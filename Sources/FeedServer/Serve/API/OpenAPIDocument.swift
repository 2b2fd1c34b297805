/// The OpenAPI 3.1 description of the JSON API, served at `/api/openapi.json`.
enum OpenAPIDocument {
    private static func parameter(_ name: String, _ place: String, _ description: String, many: Bool = false) -> String
    {
        let schema = many ? #"{"type":"array","items":{"type":"string"}}"# : #"{"type":"string"}"#
        return
            #"{"name":"\#(name)","in":"\#(place)","required":\#(place == "path"),"description":"\#(description)","schema":\#(schema)}"#
    }

    private static func operation(_ summary: String, _ parameters: [String], _ content: String = "application/json")
        -> String
    {
        #"{"get":{"summary":"\#(summary)","parameters":[\#(parameters.joined(separator: ","))],"responses":{"200":{"description":"OK","content":{"\#(content)":{}}},"400":{"description":"A bad filter, sort, cursor or limit: {\"error\": message}"},"401":{"description":"The server has a token and the request did not carry it"},"404":{"description":"No such feed, entity or record"}}}}"#
    }

    private static let view = [
        parameter("entity", "path", "An entity, or a child table <entity>__<list>"),
        parameter(
            "where", "query", "Conditions of feedwork export --where: FIELD=VALUE, !=, <, <=, >, >=, ~ (contains)",
            many: true),
        parameter("feed", "query", "Only rows of these feeds", many: true),
        parameter("sort", "query", "A field to sort by, -field for descending"),
    ]

    static let text: String = {
        let paths: [(String, String)] = [
            (
                "/api/feeds",
                operation("Every feed that ran: its recent runs (newest first), rows per entity and rejects", [])
            ),
            (
                "/api/feeds/{feed}/runs",
                operation(
                    "A page of the feed's runs, newest first; next is the before of the following page",
                    [
                        parameter("feed", "path", "The feed"),
                        parameter("before", "query", "Only runs older than this run id"),
                        parameter("limit", "query", "Runs per page, 1 to 200 (20)"),
                    ])
            ),
            (
                "/api/feeds/{feed}/rejects",
                operation(
                    "The feed's rejected records, newest first: reason, JSON path, raw record",
                    [
                        parameter("feed", "path", "The feed"),
                        parameter("limit", "query", "At most this many, 1 to 200 (50)"),
                    ])
            ),
            ("/api/entities", operation("Every entity and child table with its fields and their types", [])),
            (
                "/api/entities/{entity}/rows",
                operation(
                    "A keyset page of the view: fields, rows typed as feedwork export writes them, and next, the after of the following page (null on the last)",
                    view + [
                        parameter("after", "query", "The cursor of the page to read (next of the previous one)"),
                        parameter("limit", "query", "Rows per page, 1 to 500 (50)"),
                    ])
            ),
            (
                "/api/entities/{entity}/facets",
                operation(
                    "Counts of the values of the view's low-cardinality columns (of its first 100,000 rows at most)",
                    view)
            ),
            (
                "/api/entities/{entity}/records/{feed}/{key}",
                operation(
                    "One record: its versions (several for an append entity) and its child rows",
                    [
                        parameter("entity", "path", "The entity"), parameter("feed", "path", "The feed that wrote it"),
                        parameter("key", "path", "Its _key"),
                    ])
            ),
            (
                "/api/entities/{entity}/export.{format}",
                operation(
                    "The view as feedwork export writes it, byte for byte (sort is its --order)",
                    view + [
                        parameter("format", "path", "csv, ndjson or json")
                    ], "application/octet-stream")
            ),
            (
                "/api/price",
                operation(
                    "A basket priced as feedwork price --json prices it",
                    [
                        parameter("item", "query", "A good, or good=quantity", many: true),
                        parameter("currency", "query", "An ISO 4217 code (USD)"),
                    ])
            ),
        ]
        let body = paths.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",")
        return
            #"{"openapi":"3.1.0","info":{"title":"Feedwork","version":"1","description":"A read-only JSON API over a Feedwork store. With a token, send Authorization: Bearer TOKEN."},"paths":{"#
            + body + "}}"
    }()
}

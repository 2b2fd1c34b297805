import FeedEngine
import FeedPricing
import Hummingbird

/// The OpenAPI 3.1 description of the JSON API, served at `/api/openapi.json`: a contract a
/// client can trust, each parameter declared as the server validates it (a `limit` is an
/// integer within its bounds, an `item` a good of the catalog with an optional quantity), so
/// that a request the document allows is never refused for its form. What only the store can
/// say (which fields an entity has, whether a cursor belongs to the order) is a 400 that says
/// why.
enum OpenAPIDocument {
    /// A parameter; `schema` is its JSON Schema, a string by default.
    private static func parameter(
        _ name: String, _ place: String, _ description: String, schema: String = #"{"type":"string"}"#,
        required: Bool = false
    ) -> String {
        #"{"name":"\#(name)","in":"\#(place)","required":\#(place == "path" || required),"description":"\#(description)","schema":\#(schema)}"#
    }

    /// A repeatable parameter (`where=a&where=b`).
    private static func repeated(
        _ name: String, _ description: String, items: String = #"{"type":"string"}"#, required: Bool = false
    ) -> String {
        parameter(
            name, "query", description,
            schema: #"{"type":"array","items":\#(items)\#(required ? #","minItems":1"# : "")}"#,
            required: required)
    }

    /// An integer from `minimum` to `maximum`.
    private static func integer(_ minimum: Int64, _ maximum: Int64, default value: Int? = nil) -> String {
        #"{"type":"integer","minimum":\#(minimum),"maximum":\#(maximum)\#(value.map { #","default":\#($0)"# } ?? "")}"#
    }

    /// A JSON Schema `pattern` string.
    private static func pattern(_ regex: String) -> String { #"{"type":"string","pattern":"\#(regex)"}"# }

    private static func operation(_ summary: String, _ parameters: [String], _ content: [String] = ["application/json"])
        -> String
    {
        let types = content.map { #""\#($0)":{}"# }.joined(separator: ",")
        return
            #"{"get":{"summary":"\#(summary)","parameters":[\#(parameters.joined(separator: ","))],"responses":{"200":{"description":"OK","content":{\#(types)}},"400":{"description":"A bad filter, sort, cursor, limit, good or quantity: {\"error\": message}"},"401":{"description":"The server has a token and the request did not carry it"},"404":{"description":"No such feed, entity, record or currency"},"414":{"description":"A request target longer than \#(GuardMiddleware<BasicRequestContext>.maximumURILength) bytes"},"405":{"description":"A method other than GET and HEAD (Allow: GET, HEAD)"}}}}"#
    }

    /// A condition of `feedwork export --where`: a field name, an operator, a value; no NUL.
    /// Empty, as a page's form sends it, it is no condition.
    static let conditionPattern = #"^([^=!<>~\\u0000]+(=|!=|<|<=|>|>=|~)[^\\u0000]*)?$"#
    /// A good of the catalog (its name in any case: `[Mm][Ii][Ll][Kk]`), then `=quantity` from
    /// 1 to 999,999.
    static let itemPattern: String = {
        let names = GoodsCatalog.standard.names.map { name in
            name.map { letter in
                let lower = letter.lowercased()
                let upper = letter.uppercased()
                return lower == upper ? String(letter) : "[\(upper)\(lower)]"
            }.joined()
        }
        return "^(" + names.joined(separator: "|") + ")(=[1-9][0-9]{0,5})?$"
    }()

    private static let view = [
        parameter("entity", "path", "An entity, or a child table <entity>__<list>"),
        repeated(
            "where",
            "Conditions of feedwork export --where: FIELD=VALUE, !=, <, <=, >, >=, ~ (contains); the field must be the entity's and the value fit its type",
            items: pattern(conditionPattern)),
        repeated("feed", "Only rows of these feeds"),
        parameter(
            "sort", "query", "A field of the entity to sort by, -field for descending", schema: pattern("^(-?[^-].*)?$")
        ),
        parameter(
            "q", "query",
            "Words (letters and digits) to search the entity's full-text index for: the rows holding every word, whatever the case, best matches first unless sorted; the rows API adds highlights, each row's search fields as HTML with the words in mark; an entity whose feed declares no search is a 400"
        ),
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
                        parameter(
                            "before", "query", "Only runs older than this run id",
                            schema: integer(1, Int64.max)),
                        parameter(
                            "limit", "query", "Runs per page",
                            schema: integer(1, Int64(APIRoutes.maximumHistory), default: 20)),
                    ])
            ),
            (
                "/api/feeds/{feed}/rejects",
                operation(
                    "The feed's rejected records, newest first: reason, JSON path, raw record",
                    [
                        parameter("feed", "path", "The feed"),
                        parameter(
                            "limit", "query", "At most this many",
                            schema: integer(1, Int64(APIRoutes.maximumHistory), default: 50)),
                    ])
            ),
            ("/api/entities", operation("Every entity and child table with its fields and their types", [])),
            (
                "/api/entities/{entity}/rows",
                operation(
                    "A keyset page of the view: fields, rows typed as feedwork export writes them, and next, the after of the following page (null on the last)",
                    view + [
                        parameter(
                            "after", "query", "The cursor of the page to read (next of the previous page of this view)",
                            schema: pattern("^[A-Za-z0-9_-]*$")),
                        parameter(
                            "limit", "query", "Rows per page",
                            schema: integer(
                                1, Int64(StoreBrowser.maximumPageSize), default: EntityPageQuery.defaultLimit)),
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
                        parameter(
                            "format", "path", "The file's format",
                            schema: #"{"type":"string","enum":["csv","ndjson","json"]}"#)
                    ], Download.formats.values.map(\.1).sorted())
            ),
            (
                "/api/price",
                operation(
                    "A basket priced as feedwork price --json prices it",
                    [
                        repeated(
                            "item", "A good of the catalog, or good=quantity", items: pattern(itemPattern),
                            required: true),
                        parameter(
                            "currency", "query", "An ISO 4217 code (EUR, the catalog's, by default)",
                            schema: pattern("^[A-Za-z]{3}$")),
                    ])
            ),
        ]
        let body = (paths + [sqlPath]).map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",")
        return
            #"{"openapi":"3.1.0","info":{"title":"Feedwork","version":"1","description":"A read-only JSON API over a Feedwork store. With a token, send Authorization: Bearer TOKEN."},"paths":{"#
            + body + "}}"
    }()
}

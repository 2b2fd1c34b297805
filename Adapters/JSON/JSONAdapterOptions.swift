import FeedKit

extension JSONAdapter {
    /// The YAML block of a `json` feed. Every key is checked strictly: a key the block's `type`
    /// does not use (say `currency` on a `string` field, or `token` on `basic` auth) is an
    /// "unknown key" error with its line and column.
    public struct Options: Decodable, Sendable {
        /// An http(s) URL, a `file://` URL or a path relative to feeds.yaml.
        public var url: String
        /// `GET` (the default) or `POST`.
        public var method: String?
        /// Query parameters, in order; values may hold `{{today-7d|yyyy-MM-dd}}` date templates.
        public var params: OrderedMapping<TemplatedString>?
        /// Request headers, in order; values may hold date templates (and `${VAR}`, like any value).
        public var headers: OrderedMapping<TemplatedString>?
        /// The body of a `POST`, written in YAML.
        public var body: YAMLJSON?
        /// How `body` is sent: `json` (the default), `form` (a mapping of scalars, URL-encoded)
        /// or `raw` (a string, sent as it is).
        public var bodyFormat: String?
        public var auth: AuthSpec?
        public var pagination: PaginationSpec?
        /// Where the records are in a response: `$.data.items`, or `$` for a top-level list.
        public var records: String?
        /// The entity (table) the records are written to.
        public var entity: String
        /// The field (or fields) that identify a record.
        public var key: KeySpec
        /// `merge` (the default), `replace` or `append`.
        public var write: String?
        /// `ignore` (the default) drops undeclared members; `keep` stores them in an `_extra` JSON
        /// column; `columns` makes each undeclared top-level member a column typed from its
        /// values (``AutoColumns``); `{keep: true, except: [password]}` leaves members out
        /// (``ExtraSpec``).
        public var extra: ExtraSpec?
        /// The declared columns, in order.
        public var fields: OrderedMapping<FieldSpec>
        /// Within this age, cached responses are used without a request.
        public var maxAge: FeedDuration?
        /// Conditions on mapped fields (`export --where` grammar, values may hold date
        /// templates); a record is stored only when all of them hold. One string or a list.
        var filter: OneOrMany?
        /// Which records say that their row is gone (soft deletes); see ``DeleteWhenSpec``.
        public var deleteWhen: DeleteWhenSpec?
        /// Read only what changed since the last pass; see ``IncrementalSpec``.
        public var incremental: IncrementalSpec?
        /// Further entities read from the same responses; see ``EntitySpec``.
        public var entities: [EntitySpec]?
        /// The responses' format: JSON (the default), XML or CSV; see ``FormatSpec``.
        public var format: FormatSpec?
        /// Requests made once for each row of a parent entity; see ``ForEachSpec``.
        public var forEach: ForEachSpec?
        /// The text fields of the entity's full-text index (`search: [title, description]`),
        /// for `?q=` in `feedwork serve` and `feedwork export --search`.
        public var search: KeySpec?
        /// Failure statuses of the feed's own requests that mean "no records here"
        /// (`empty_statuses: [404]`): such a page gives no records, and the pass says so.
        public var emptyStatuses: [Int]?
        /// A member of the response whose presence (not null) means the request failed; its
        /// value is the message (`error_path: $.error.message`).
        public var errorPath: String?
        /// A member whose value says the request failed (`error_when: {path: status, equals: error}`).
        public var errorWhen: EntitySpec.Condition?
        /// What a `records` path whose value is `null` means: `fail` (the default: a failed
        /// pass, since an API's error body often says `"data": null`) or `empty` (no records).
        public var nullRecords: String?

        enum CodingKeys: String, CodingKey {
            case url, method, params, headers, body, auth, pagination, records, entity, key, write, extra, fields
            case filter, incremental, format
            case maxAge = "max_age"
            case bodyFormat = "body_format"
            case deleteWhen = "delete_when"
            case entities
            case forEach = "for_each"
            case search
            case emptyStatuses = "empty_statuses"
            case errorPath = "error_path"
            case errorWhen = "error_when"
            case nullRecords = "null_records"
        }
    }

    /// `key: id` or `key: [a, b]`.
    public struct KeySpec: Decodable, Sendable, Hashable {
        public var fields: [String]

        public init(from decoder: any Decoder) throws {
            if let single = try? decoder.singleValueContainer().decode(String.self) {
                fields = [single]
            } else {
                var list = try decoder.unkeyedContainer()
                var names: [String] = []
                while !list.isAtEnd { names.append(try list.decode(String.self)) }
                fields = names
            }
        }
    }

    /// How requests authenticate. Secret values belong in `${VAR}`; they are redacted everywhere.
    public enum AuthSpec: Decodable, Sendable, Hashable {
        /// `Authorization: Bearer <token>`.
        case bearer(token: String)
        /// An API key sent as a header or as a query parameter.
        case apiKey(header: String?, query: String?, value: String)
        /// HTTP Basic: `Authorization: Basic base64(username:password)`.
        case basic(username: String, password: String)
        /// `Authorization: Bearer <token>` with tokens from an OAuth2 token endpoint
        /// (`oauth2_client_credentials` or `oauth2_refresh_token`); see ``OAuth2Session``.
        case oauth2(OAuth2Credentials)

        enum CodingKeys: String, CodingKey {
            case type, token, header, query, value, username, password
            case tokenURL = "token_url"
            case clientID = "client_id"
            case clientSecret = "client_secret"
            case refreshToken = "refresh_token"
            case scope, audience, params
            case clientAuth = "client_auth"
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            let type = try container.decode(String.self, forKey: .type)
            switch type {
            case "bearer":
                self = .bearer(token: try container.decode(String.self, forKey: .token))
            case "api_key":
                let header = try container.decodeIfPresent(String.self, forKey: .header)
                let query = try container.decodeIfPresent(String.self, forKey: .query)
                guard (header == nil) != (query == nil) else {
                    throw DecodingError.dataCorruptedError(
                        forKey: .type, in: container,
                        debugDescription:
                            "api_key auth needs exactly one of 'header' (a header name) or 'query' (a parameter name)")
                }
                self = .apiKey(header: header, query: query, value: try container.decode(String.self, forKey: .value))
            case "basic":
                self = .basic(
                    username: try container.decode(String.self, forKey: .username),
                    password: try container.decode(String.self, forKey: .password))
            case "oauth2_client_credentials", "oauth2_refresh_token":
                self = .oauth2(try Self.oauth2(type, container))
            default:
                throw DecodingError.dataCorruptedError(
                    forKey: .type, in: container,
                    debugDescription:
                        "unknown auth type '\(type)'; use bearer, api_key, basic, oauth2_client_credentials or oauth2_refresh_token"
                )
            }
        }
    }

    /// How pages follow one another. Each `type` accepts only its own keys.
    public struct PaginationSpec: Decodable, Sendable, Hashable {
        public enum Kind: String, Sendable, Hashable, CaseIterable {
            case none, offset, page, cursor
            case nextURL = "next_url"
            case linkHeader = "link_header"
        }

        public var kind: Kind
        /// `offset`: records per page (required); `page` and `cursor`: the page size sent as
        /// `limit_param` (optional).
        public var limit: Int?
        public var limitParam: String?
        public var offsetParam: String?
        public var pageParam: String?
        /// The first offset (0) or page number (1).
        public var start: Int?
        /// Path of the total number of records in a response (`offset`, `page`).
        public var totalPath: String?
        /// Path of the total number of pages in a response (`page`).
        public var totalPagesPath: String?
        /// Path of the next cursor in a response (`cursor`).
        public var cursorPath: String?
        public var cursorParam: String?
        /// Path of the next page's URL in a response (`next_url`).
        public var nextPath: String?
        /// Stop when a page has fewer records than `limit` (`offset`, `page` with `limit`).
        public var stopOnShortPage: Bool?
        /// The most pages one pass fetches.
        public var maxPages: Int?
        /// Pages fetched at once when the total is known from the first page.
        public var parallel: Int?
        /// Path of a boolean that is false on the last page (any type but `none`).
        public var hasMorePath: String?
        /// A walk that ends early (a page repeating an earlier one, fewer records than
        /// `total_path` says, an empty page with a next cursor) is a note rather than a failed pass.
        public var allowIncomplete: Bool?
        /// The response header holding the next cursor (`cursor`), instead of `cursor_path`.
        public var cursorHeader: String?
        /// The response header holding the next page's URL (`next_url`), instead of `next_path`.
        public var nextHeader: String?
        /// `offset`: how the offset steps, `records` (the default: by the records a page held)
        /// or `limit` (by `limit`, for an API whose offset counts more than the records it sends).
        public var advance: String?

        enum CodingKeys: String, CodingKey {
            case type, limit, start, parallel
            case limitParam = "limit_param"
            case offsetParam = "offset_param"
            case pageParam = "page_param"
            case totalPath = "total_path"
            case totalPagesPath = "total_pages_path"
            case cursorPath = "cursor_path"
            case cursorParam = "cursor_param"
            case nextPath = "next_path"
            case stopOnShortPage = "stop_on_short_page"
            case maxPages = "max_pages"
            case hasMorePath = "has_more_path"
            case allowIncomplete = "allow_incomplete"
            case cursorHeader = "cursor_header"
            case nextHeader = "next_header"
            case advance
        }

        public init(kind: Kind) { self.kind = kind }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            let type = try container.decode(String.self, forKey: .type)
            guard let kind = Kind(rawValue: type) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .type, in: container,
                    debugDescription:
                        "unknown pagination type '\(type)'; use \(Kind.allCases.map(\.rawValue).joined(separator: ", "))"
                )
            }
            self.kind = kind
            guard kind != .none else { return }
            maxPages = try container.decodeIfPresent(Int.self, forKey: .maxPages)
            hasMorePath = try container.decodeIfPresent(String.self, forKey: .hasMorePath)
            allowIncomplete = try container.decodeIfPresent(Bool.self, forKey: .allowIncomplete)
            switch kind {
            case .none: break
            case .offset:
                limit = try container.decode(Int.self, forKey: .limit)
                limitParam = try container.decodeIfPresent(String.self, forKey: .limitParam)
                offsetParam = try container.decodeIfPresent(String.self, forKey: .offsetParam)
                start = try container.decodeIfPresent(Int.self, forKey: .start)
                totalPath = try container.decodeIfPresent(String.self, forKey: .totalPath)
                stopOnShortPage = try container.decodeIfPresent(Bool.self, forKey: .stopOnShortPage)
                parallel = try container.decodeIfPresent(Int.self, forKey: .parallel)
                advance = try container.decodeIfPresent(String.self, forKey: .advance)
            case .page:
                pageParam = try container.decodeIfPresent(String.self, forKey: .pageParam)
                start = try container.decodeIfPresent(Int.self, forKey: .start)
                limit = try container.decodeIfPresent(Int.self, forKey: .limit)
                limitParam = try container.decodeIfPresent(String.self, forKey: .limitParam)
                totalPath = try container.decodeIfPresent(String.self, forKey: .totalPath)
                totalPagesPath = try container.decodeIfPresent(String.self, forKey: .totalPagesPath)
                stopOnShortPage = try container.decodeIfPresent(Bool.self, forKey: .stopOnShortPage)
                parallel = try container.decodeIfPresent(Int.self, forKey: .parallel)
            case .cursor:
                cursorPath = try container.decodeIfPresent(String.self, forKey: .cursorPath)
                cursorHeader = try container.decodeIfPresent(String.self, forKey: .cursorHeader)
                cursorParam = try container.decodeIfPresent(String.self, forKey: .cursorParam)
                limit = try container.decodeIfPresent(Int.self, forKey: .limit)
                limitParam = try container.decodeIfPresent(String.self, forKey: .limitParam)
            case .nextURL:
                nextPath = try container.decodeIfPresent(String.self, forKey: .nextPath)
                nextHeader = try container.decodeIfPresent(String.self, forKey: .nextHeader)
            case .linkHeader:
                break
            }
        }
    }

    /// One declared column: `id: int`, or a mapping such as
    /// `{ path: cost.amount, type: decimal, divide: 100, default: 0 }`.
    public struct FieldSpec: Decodable, Sendable {
        /// The value types a field can declare.
        public static let types = [
            "int", "decimal", "double", "string", "bool", "timestamp", "date", "json", "money", "list", "media",
        ]

        /// `int`, `decimal`, `double`, `string`, `bool`, `timestamp`, `date`, `json`, `money` or `list`.
        public var type: String
        /// Where the value is, relative to the record (`cost.amount`); the column name by default.
        public var path: String?
        /// Used when the value is missing or null (a YAML scalar, converted to the field's type).
        public var defaultValue: String?
        /// A missing or null value rejects the record.
        public var required: Bool?
        /// `trim`, `lowercase`, `uppercase`, applied in order (`string`).
        public var transform: [String]?
        /// Unit changes, exact for `int` and `decimal` (`int`, `decimal`, `double`).
        public var multiply: String?
        public var divide: String?
        /// The input format of a `timestamp`: `iso8601` (default), `unix`, `unix_ms`, or a pattern
        /// like `yyyy-MM-dd HH:mm:ss` (read as UTC); of a `date`: `iso8601` (`YYYY-MM-DD`, the
        /// default) or a pattern of `yyyy`, `MM` and `dd` (`dd/MM/yyyy`).
        public var format: String?
        /// The ISO 4217 code of a `money` field, which decides the minor units.
        public var currency: String?
        /// A `list` of scalars: the type of each item (`string` by default).
        public var of: String?
        /// A `list` of objects: the child table's columns.
        public var fields: OrderedMapping<FieldSpec>?
        /// A `list` stored as a child table (`table`, the default) or as a JSON column (`json`).
        public var storage: String?
        /// What the column means to a person (``ColumnRole``): `image`, `link` or `title` on a
        /// `string`, `money` on a `money` or `int` field.
        public var role: String?
        /// `string`: the values are image URLs whose images are mirrored into the store
        /// (``Column/media``); `type: media` is short for `type: string` with `media: true`.
        public var media: Bool?
        /// `bool`: texts (or numbers) read as true, besides JSON's `true` (`true: [Y, yes]`).
        public var trueValues: [String]?
        /// `bool`: texts (or numbers) read as false, besides JSON's `false` (`false: [N, no]`).
        public var falseValues: [String]?
        /// Any scalar field: values replaced before they are stored (`map: {A: active}`), each
        /// written as the field's type; a value the map does not list rejects the record.
        public var map: OrderedMapping<String>?
        /// Any scalar field: texts that mean null (`null_values: ["", "N/A", "-"]`), so that
        /// `default` and `required` apply to them.
        public var nullValues: [String]?
        /// `int` and `double`: numeric strings (`"42"`) are read as numbers too.
        public var fromString: Bool?
        /// Any scalar field but `json`: the same value in every record, read as the field's
        /// type (`region: {type: string, const: eu}`), where the API has none.
        public var constant: String?
        /// Any scalar field but `json`: the texts of these members (paths relative to the
        /// record), joined by `separator`, then read as the field's type; missing or null
        /// members are left out, and the value is null when all of them are.
        public var concat: [String]?
        /// What goes between the members of `concat` (nothing by default).
        public var separator: String?

        enum CodingKeys: String, CodingKey {
            case type, path, required, transform, multiply, divide, format, currency, of, fields, role, media
            case defaultValue = "default"
            case storage = "as"
            case trueValues = "true"
            case falseValues = "false"
            case map
            case nullValues = "null_values"
            case fromString = "from_string"
            case constant = "const"
            case concat, separator
        }

        public init(type: String) { self.type = type }

        /// Reads the keys of the field's `type`; an unknown type reads every key, so that the
        /// type is the only problem reported (by ``FieldCompiler``, like every other value).
        public init(from decoder: any Decoder) throws {
            if let short = try? decoder.singleValueContainer().decode(String.self) {
                type = short
                return
            }
            let container = try decoder.container(keyedBy: CodingKeys.self)
            type = try container.decode(String.self, forKey: .type)
            path = try container.decodeIfPresent(String.self, forKey: .path)
            let known = Self.types.contains(type)
            if type == "list" || !known {
                storage = try container.decodeIfPresent(String.self, forKey: .storage)
                of = try container.decodeIfPresent(String.self, forKey: .of)
                fields = try container.decodeIfPresent(OrderedMapping<FieldSpec>.self, forKey: .fields)
                if known { return }
            }
            if type != "json" {
                defaultValue = try container.decodeIfPresent(String.self, forKey: .defaultValue)
            }
            role = try container.decodeIfPresent(String.self, forKey: .role)
            required = try container.decodeIfPresent(Bool.self, forKey: .required)
            if type == "string" || type == "media" || !known {
                transform = try container.decodeIfPresent(OneOrMany.self, forKey: .transform)?.values
            }
            if type == "string" || !known {
                media = try container.decodeIfPresent(Bool.self, forKey: .media)
            }
            if ["int", "decimal", "double"].contains(type) || !known {
                multiply = try container.decodeIfPresent(String.self, forKey: .multiply)
                divide = try container.decodeIfPresent(String.self, forKey: .divide)
            }
            if type == "timestamp" || type == "date" || !known {
                format = try container.decodeIfPresent(String.self, forKey: .format)
            }
            if type == "money" || !known {
                currency = try container.decodeIfPresent(String.self, forKey: .currency)
            }
            try decodeConversions(container, known: known)
            if type != "json" {
                constant = try container.decodeIfPresent(String.self, forKey: .constant)
                concat = try container.decodeIfPresent(OneOrMany.self, forKey: .concat)?.values
                separator = try container.decodeIfPresent(String.self, forKey: .separator)
            }
        }

        /// The value conversions: `true`/`false` lists, `map`, `null_values` and `from_string`.
        private mutating func decodeConversions(_ container: KeyedDecodingContainer<CodingKeys>, known: Bool) throws {
            if type == "bool" || !known {
                trueValues = try container.decodeIfPresent(OneOrMany.self, forKey: .trueValues)?.values
                falseValues = try container.decodeIfPresent(OneOrMany.self, forKey: .falseValues)?.values
            }
            if type != "json" {
                map = try container.decodeIfPresent(OrderedMapping<String>.self, forKey: .map)
            }
            nullValues = try container.decodeIfPresent(OneOrMany.self, forKey: .nullValues)?.values
            if ["int", "double"].contains(type) || !known {
                fromString = try container.decodeIfPresent(Bool.self, forKey: .fromString)
            }
        }

        /// The problem with an unknown `type`, if it is one.
        static func typeProblem(_ type: String) -> String? {
            guard !types.contains(type) else { return nil }
            var message = "unknown field type '\(type)'; use \(types.joined(separator: ", "))"
            if ["integer", "number"].contains(type) { message += " ('\(type)' is spelt int, decimal or double)" }
            return message
        }
    }

    /// `transform: trim` or `transform: [trim, lowercase]`.
    struct OneOrMany: Decodable {
        var values: [String]

        init(from decoder: any Decoder) throws {
            if let single = try? decoder.singleValueContainer().decode(String.self) {
                values = [single]
            } else {
                var list = try decoder.unkeyedContainer()
                var values: [String] = []
                while !list.isAtEnd { values.append(try list.decode(String.self)) }
                self.values = values
            }
        }
    }
}

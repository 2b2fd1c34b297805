/// The scaffold's adapter, `Sources/<Name>Feed/<Name>Adapter.swift`: strict options, one entity,
/// and a pass that fetches, parses, maps and writes, each step explained for a new author.
enum AdapterTemplate {
    static func text(_ name: AdapterName) -> String {
        ##"""
        import FeedKit

        /// The \##(name.name) adapter: reads a list of items,
        /// `{"items": [{"id": 1, "name": "Anvil", "stock": 12}]}`, and keeps each item as a row of the
        /// `\##(name.name)_item` entity.
        ///
        /// A feed of feeds.yaml names it with `adapter: \##(name.name)`; its other keys are the ``Options``:
        ///
        /// ```yaml
        /// feeds:
        ///   - name: \##(name.name)
        ///     adapter: \##(name.name)
        ///     url: https://api.example.com/v1/items   # or a file: Fixtures/\##(name.name).json
        ///     max_age: 10m                            # optional
        /// ```
        ///
        /// A pass goes fetch -> parse -> map -> write, each step in ``run(_:)``. Feedwork does the
        /// rest: retries, the response cache, secrets kept out of logs, the store's tables and one
        /// transaction per pass.
        public struct \##(name.typePrefix)Adapter: FeedAdapter {
            /// The feed's keys besides `name`, `adapter` and the keys every feed has (`every`,
            /// `max_reject_ratio`...). Feedwork decodes them strictly: a key this type does not read (a
            /// typo such as `ulr`) is an error that `feedwork validate` and `feedwork run` show at its
            /// line and column in feeds.yaml, as for the built-in adapters.
            public struct Options: Decodable, Sendable {
                /// Where the items are: an http(s) URL, a `file://` URL or a path relative to
                /// feeds.yaml.
                public var url: String
                /// Within this age a cached response is used without a request (`10m`, `1h`).
                public var maxAge: FeedDuration?

                enum CodingKeys: String, CodingKey {
                    case url
                    case maxAge = "max_age"
                }
            }

            /// The one entity this adapter writes: Feedwork creates its table (and a view) from this
            /// schema and keeps one row per key, updating it when the source changes it.
            public static let schema = EntitySchema(
                name: "\##(name.name)_item",
                columns: [
                    Column(
                        "id", .integer, nullable: false,
                        summary: "the item's id at the source (the key)"),
                    Column("name", .text, nullable: false, summary: "the item's name"),
                    Column("stock", .integer, summary: "units in stock, when the source says"),
                ],
                key: ["id"],
                order: [.ascending("id")],
                summary: "An item of the \##(name.name) API.")

            /// What `feedwork adapters` prints about this adapter: its name in feeds.yaml, its options
            /// and its entities.
            public static let description = AdapterDescription(
                name: "\##(name.name)",
                summary: "A list of items (id, name, stock) from the \##(name.name) API.",
                options: [
                    OptionHelp("url", "string", "the items: http(s) URL, file:// URL or path"),
                    OptionHelp(
                        "max_age", "duration",
                        "use the cached response without a request within this age", default: "none"),
                ],
                entities: [schema])

            let options: Options

            /// Checks the options when the config loads, before any request: throw an `OptionError`
            /// naming the option, which `feedwork validate` shows at that option's line.
            public init(options: Options, feed: FeedSetup) throws {
                guard !options.url.isEmpty else {
                    throw OptionError("url must not be empty", at: ["url"])
                }
                self.options = options
            }

            /// One pass: everything it writes commits together when it returns, or nothing when it
            /// throws.
            public func run(_ pass: FeedPass) async throws {
                // 1. Fetch: describe the request; the engine performs it (retries, cache, limits).
                let response = try await pass.fetch(
                    FetchRequest(url: options.url, maxAge: options.maxAge))
                // 2. Parse: the body as exact JSON; a body that is not JSON throws an error naming the
                //    feed, the URL and the position.
                let document = try pass.parseJSON(response)
                guard let items = document["items"]?.arrayValue else {
                    let found = document["items"]?.kindName ?? "nothing"
                    throw PayloadError(
                        feed: pass.feed, url: response.url, path: "$.items",
                        message: "expected a list of items, found \(found)"
                    )
                }
                // 3. Map: each item becomes a record, or a reject with its reason and JSON path, which
                //    `feedwork rejects` shows (the pass fails when rejects pass `max_reject_ratio`).
                var batch = RecordBatch(source: RecordSource(response))
                for (index, item) in items.enumerated() {
                    switch Self.record(item) {
                    case .success(let record):
                        batch.records.append(record)
                    case .failure(let error):
                        batch.rejects.append(
                            Reject(
                                entity: Self.schema.name, item: item, at: "$.items[\(index)]",
                                error: error))
                    }
                }
                // 4. Write: the records go to the store within the pass's transaction.
                try await pass.write(batch)
            }

            /// One item as a record of `\##(name.name)_item`, or why it cannot be one. A pure function: test it
            /// on its own with a `JSONValue`.
            static func record(_ item: JSONValue) -> Swift.Result<EntityRecord, RecordError> {
                guard case .object = item else {
                    return .failure(RecordError(reason: "expected an object, found \(item.kindName)"))
                }
                guard let id = item["id"]?.int64Value else {
                    return .failure(
                        RecordError(field: "id", reason: "id is missing or not a whole number"))
                }
                guard let name = item["name"]?.stringValue, !name.isEmpty else {
                    return .failure(
                        RecordError(field: "name", reason: "name is missing, empty or not a string"))
                }
                var stock = FieldValue.null
                if let value = item["stock"], !value.isNull {
                    guard let number = value.int64Value else {
                        return .failure(
                            RecordError(
                                field: "stock",
                                reason: "stock must be a whole number, found \(value.kindName)"))
                    }
                    stock = .integer(number)
                }
                do {
                    let fields: [String: FieldValue] = [
                        "id": .integer(id), "name": .text(name), "stock": stock,
                    ]
                    return .success(try EntityRecord(schema: schema, fields: fields))
                } catch {
                    return .failure(RecordError(reason: String(describing: error)))
                }
            }
        }

        """##
    }
}

extension FeedTools {
    /// The largest page `search` and the runs and rejects answers give.
    static let maximumRows = 200

    /// Every tool, in the order `tools/list` gives them.
    static let catalog: [MCPTool] = [
        MCPTool(
            name: "list_feeds",
            description: "The feeds of the config and of the store: adapter, whether enabled, the last run's status,"
                + " time and error, rows per entity, rejects, cursor, schedule and next run.",
            arguments: []),
        MCPTool(
            name: "list_entities",
            description: "The store's entities and child tables, with their key, parent and row count.",
            arguments: []),
        MCPTool(
            name: "describe_entity",
            description: "One entity or child table: its fields with their types, key, relations to other entities,"
                + " child tables, full-text search fields and row count.",
            arguments: [.init(name: "entity", kind: .string, description: "The entity or child table.", required: true)]
        ),
        MCPTool(
            name: "query_sql",
            description: "Runs one read-only SELECT or WITH statement on the store, with :name parameters, under the"
                + " row limit (1000) and time limit (5 s) of feedwork serve's /api/sql. The cache, state and outbox"
                + " tables are hidden. Answers {columns, rows, truncated, truncated_reason (when truncated), row_limit}.",
            arguments: [
                .init(name: "sql", kind: .string, description: "One SELECT or WITH statement.", required: true),
                .init(
                    name: "parameters", kind: .object,
                    description: "The values of the statement's :name parameters, by name without the colon."),
            ]),
        MCPTool(
            name: "search",
            description: "Full-text search of an entity that declares `search:` fields: its rows matching every word,"
                + " best first.",
            arguments: [
                .init(name: "entity", kind: .string, description: "The entity to search.", required: true),
                .init(name: "query", kind: .string, description: "The words to find.", required: true),
                .init(name: "feed", kind: .string, description: "Only this feed's rows."),
                .init(name: "limit", kind: .integer, description: "The most rows (1 to 200, default 20)."),
            ]),
        MCPTool(
            name: "get_record",
            description: "One record of an entity by its feed and key (`_key`), with its child rows; for an entity"
                + " kept with history, each version, oldest first.",
            arguments: [
                .init(name: "entity", kind: .string, description: "The entity.", required: true),
                .init(name: "feed", kind: .string, description: "The feed that wrote it.", required: true),
                .init(
                    name: "key", kind: .string, description: "Its key as the `_key` column holds it.",
                    required: true),
            ]),
        MCPTool(
            name: "feed_runs",
            description: "A feed's runs, newest first: status, times, rows inserted, updated, deleted, rejected,"
                + " requests, error.",
            arguments: [
                .init(name: "feed", kind: .string, description: "The feed.", required: true),
                .init(name: "limit", kind: .integer, description: "The most runs (1 to 200, default 20)."),
            ]),
        MCPTool(
            name: "feed_rejects",
            description: "The records a feed rejected, newest first: entity, reason, JSON path, URL (secrets"
                + " redacted), page, and the record as received.",
            arguments: [
                .init(name: "feed", kind: .string, description: "The feed.", required: true),
                .init(name: "limit", kind: .integer, description: "The most rejects (1 to 200, default 50)."),
            ]),
        MCPTool(
            name: "validate_config",
            description: "Checks a feeds.yaml given as text, as `feedwork validate` does, without writing anything:"
                + " every problem with its line and column; when valid, the changes its next pass would make to"
                + " the store (`feedwork schema --plan`). ${VAR} values are not read from the server's environment.",
            arguments: [.init(name: "yaml", kind: .string, description: "The feeds.yaml text.", required: true)]),
    ]
}

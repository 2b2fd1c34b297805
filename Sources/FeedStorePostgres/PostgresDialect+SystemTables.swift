import FeedStore

/// How the PostgreSQL store declares its system tables (``SystemTables``), with the types a SQL
/// user expects: times are `timestamptz`, counts `bigint`, bodies `bytea`, JSON `jsonb`.
extension PostgresDialect {
    func systemType(_ kind: SystemColumn.Kind) -> String {
        switch kind {
        case .serial, .integer: "bigint"
        case .text: "text"
        case .boolean: "boolean"
        case .time: "timestamptz"
        case .json: "jsonb"
        case .bytes: "bytea"
        }
    }

    var serialPrimaryKey: String { "bigserial PRIMARY KEY" }

    func zero(_ kind: SystemColumn.Kind) -> String { kind == .boolean ? "false" : "0" }
}

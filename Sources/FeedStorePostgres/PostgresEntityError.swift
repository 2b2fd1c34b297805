import FeedStore

/// A failure creating or writing an entity's tables on PostgreSQL, saying which entity, which
/// table and (when known) which column and record, with the server's message.
public struct PostgresEntityError: Error, Sendable, CustomStringConvertible {
    /// The entity being written.
    public var entity: String
    /// The table the failure is about: the entity's, a child table or a staging table.
    public var table: String
    /// The column the failure is about, when the server or the check names one.
    public var column: String?
    /// The key of the record whose value the server refused, when it can be told.
    public var key: String?
    public var message: String
    /// The server's error, when the failure came from the server.
    public var underlying: PostgresError?

    init(
        entity: String, table: String, column: String? = nil, key: String? = nil, message: String,
        underlying: PostgresError? = nil
    ) {
        self.entity = entity
        self.table = table
        self.column = column
        self.key = key
        self.message = message
        self.underlying = underlying
    }

    public var description: String {
        var place = "entity '\(entity)' (table \(table)"
        if let column { place += ", column '\(column)'" }
        if let key { place += ", record '\(key)'" }
        place += ")"
        guard let underlying else { return "\(place): \(message)" }
        return "\(place): \(message): PostgreSQL \(underlying.location): \(underlying.message)"
    }

    /// `error`, from a statement on `table` of `entity`, with the column and record it names.
    ///
    /// A refused COPY value is reported by the server with a context line such as
    /// `COPY _stage_item, line 3, column price: "abc"`: its column is taken from there, and its
    /// line (1 for the first row sent) picks the record's key out of `keys`, the keys in the
    /// order they were sent.
    static func server(
        _ error: PostgresError, entity: String, table: String, doing what: String, keys: [String] = []
    ) -> PostgresEntityError {
        var column: String?
        var key: String?
        if let context = error.message.range(of: "COPY ") {
            let rest = error.message[context.upperBound...]
            if let columnStart = rest.range(of: ", column ") {
                let name = rest[columnStart.upperBound...].prefix { $0 != ":" && $0 != "\n" }
                column = String(name)
            }
            if let lineStart = rest.range(of: ", line ") {
                let digits = rest[lineStart.upperBound...].prefix { $0.isNumber }
                if let line = Int(digits), line >= 1, line <= keys.count { key = keys[line - 1] }
            }
        }
        return PostgresEntityError(
            entity: entity, table: table, column: column, key: key, message: what, underlying: error)
    }
}

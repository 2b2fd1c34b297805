import FeedKit
import FeedStore

/// The COPYs of a ``PostgresEntityWriter``: records and child rows as COPY rows.
extension PostgresEntityWriter {
    /// One child row to send: its parent's place in the records given, its position in the
    /// list, and its values.
    typealias ChildRow = (offset: Int, position: Int, values: [FieldValue])

    /// COPYs one row per item of `items` with `statement`, a `COPY ... FROM STDIN` into
    /// `table`; `fill` appends an item's values, in the statement's column order, to the row.
    ///
    /// - Parameter key: the key of the record an item belongs to, to name it when the server
    ///   refuses one of its values.
    func copy<Item>(
        _ statement: String, into table: String, _ items: [Item], key: (Item) -> String,
        _ connection: PostgresConnection, fill: (Item, inout [String?]) -> Void
    ) throws(PostgresEntityError) {
        try settle(connection)
        do {
            try connection.copy(statement) { stream in
                var row: [String?] = []
                for item in items {
                    row.removeAll(keepingCapacity: true)
                    fill(item, &row)
                    try stream.appendRow(row)
                }
            }
        } catch let error as PostgresError {
            throw .server(error, entity: schema.name, table: table, doing: "a value was refused", keys: items.map(key))
        } catch {
            throw PostgresEntityError(entity: schema.name, table: table, message: "\(error)")
        }
    }

    /// COPYs the rows of `buffer` with `statement`, a `COPY ... FROM STDIN` into `table`: its
    /// rows in binary with the statement in binary format (``PostgresWriterSQL/binary(_:)``),
    /// after its rows in text, if any, with the statement as it is.
    ///
    /// - Parameter waiting: whether to wait for the server to have stored them; without it, the
    ///   writer goes on while the server works on the last COPY, and its next statement
    ///   (``settle(_:)``) reads the outcome, naming the rows' records when the server refused one.
    func copy(
        _ statement: String, into table: String, _ buffer: PostgresCopyBuffer, waiting: Bool = true,
        _ connection: PostgresConnection
    ) throws(PostgresEntityError) {
        if !buffer.textKeys.isEmpty {
            try copy(
                statement, into: table, keys: buffer.textKeys, waiting: waiting || !buffer.binaryKeys.isEmpty,
                connection
            ) { stream throws(PostgresError) in try stream.append(buffer.text) }
        }
        guard !buffer.binaryKeys.isEmpty else { return }
        try copy(
            PostgresWriterSQL.binary(statement), into: table, keys: buffer.binaryKeys, waiting: waiting, connection
        ) { stream throws(PostgresError) in
            try stream.append(PostgresCopyBinary.header)
            try stream.append(buffer.binary)
            try stream.append(PostgresCopyBinary.trailer)
        }
    }

    /// COPYs with `statement` what `send` writes to the stream, the rows of the records `keys`.
    private func copy(
        _ statement: String, into table: String, keys: [String], waiting: Bool, _ connection: PostgresConnection,
        send: (inout PostgresCopyStream) throws(PostgresError) -> Void
    ) throws(PostgresEntityError) {
        try settle(connection)
        do {
            try connection.copy(statement, waiting: waiting) { stream in try send(&stream) }
            if !waiting { unsettledCopy = (table, keys) }
        } catch let error as PostgresError {
            throw .server(error, entity: schema.name, table: table, doing: "a value was refused", keys: keys)
        } catch {
            throw PostgresEntityError(entity: schema.name, table: table, message: "\(error)")
        }
    }

    /// Reads the outcome of this writer's COPY sent without waiting, if any (see
    /// ``PostgresConnection/settle()``). Every statement of the writer calls it first; a write
    /// that only holds records does not, so the writer encodes the next pages while the server
    /// stores the last batch.
    ///
    /// A COPY deferred by ``sendDirect(_:waiting:)`` is then sent, and waited for: the statement
    /// that follows may read its rows.
    func settle(_ connection: PostgresConnection) throws(PostgresEntityError) {
        if let unsettled = unsettledCopy {
            unsettledCopy = nil
            do {
                try connection.settle()
            } catch {
                throw .server(
                    error, entity: schema.name, table: unsettled.table, doing: "a value was refused",
                    keys: unsettled.keys)
            }
        }
        if let deferred = deferredCopy {
            deferredCopy = nil
            try copy(deferred.statement, into: deferred.table, deferred.rows, connection)
        }
    }

    /// Sends the COPY deferred by ``sendDirect(_:waiting:)``, if any, once the server has stored
    /// the one before it, without waiting for the server to store it.
    func sendDeferred(_ connection: PostgresConnection) throws(PostgresEntityError) {
        guard let deferred = deferredCopy else { return }
        deferredCopy = nil
        try copy(deferred.statement, into: deferred.table, deferred.rows, waiting: false, connection)
    }

    /// The rows of the list `name` of the records at `offsets` of `records`, in order.
    static func childRows(_ name: String, of records: [EntityRecord], at offsets: [Int]) -> [ChildRow] {
        offsets.flatMap { offset in
            (records[offset].children[name] ?? []).enumerated().map { (offset, $0, $1) }
        }
    }

    /// Appends `values` as COPY text.
    static func append(_ values: [FieldValue], to row: inout [String?]) {
        for value in values { row.append(PostgresCopyText.text(value)) }
    }
}

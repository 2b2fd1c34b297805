import CLibPQ
import FeedStore
import Foundation

/// One connection to PostgreSQL through libpq. Its calls block, so a connection is used by one
/// thread at a time: the store's writer thread, or the reader that opened it.
///
/// Values travel as text both ways (PostgreSQL parses a parameter as the type its place in the
/// statement needs), so exact decimals, timestamps and JSON arrive and leave as written.
final class PostgresConnection {
    private let handle: OpaquePointer
    /// The server, for messages: the URL without its password.
    package let location: String
    /// A COPY whose data was all sent but whose result was not read (``copy(_:waiting:_:)``).
    private var unsettledCopy: String?

    /// Connects to `url` (`postgres://user@host:5432/db?sslmode=disable`); libpq reads a
    /// missing password from `PGPASSWORD` or `~/.pgpass`. Both ends drop the connection when
    /// the other goes silent (``PostgresLiveness``).
    ///
    /// - Throws: ``PostgresError`` naming the server when the connection fails.
    init(url: String) throws(PostgresError) {
        location = PostgresURL.withoutPassword(url)
        guard fw_pq_load() == 1 else {
            throw PostgresError(location: location, message: String(cString: fw_pq_load_error()))
        }
        let url = PostgresLiveness.url(url)
        guard let handle = fw_PQconnectdb(url) else {
            throw PostgresError(location: location, message: "libpq could not allocate a connection")
        }
        guard fw_PQstatus(handle) == CONNECTION_OK else {
            let message = Self.text(fw_PQerrorMessage(handle))
            fw_PQfinish(handle)
            throw PostgresError(location: location, message: "cannot connect: \(message)")
        }
        self.handle = handle
        // The server's notices ("index ... does not exist, skipping") are not for users: libpq
        // would print them on stderr.
        try execute("SET client_min_messages TO warning")
        // `date` columns read back as `2024-02-29`, the SQLite store's text, whatever the
        // server's default style (`SQL, DMY` would print `29/02/2024`).
        try execute("SET DateStyle TO ISO, YMD")
        // A client that went silent gives up its session, and with it the feeds it leased,
        // within the same bound as this side notices a silent server.
        try execute(PostgresLiveness.sessionStatement(for: url))
    }

    deinit { fw_PQfinish(handle) }

    /// Whether libpq found the connection lost (the server restarted or went away): a
    /// statement failed on it and none will succeed.
    var isBroken: Bool { fw_PQstatus(handle) != CONNECTION_OK }

    /// Runs `sql`, with `$1`, `$2`... bound to `parameters` (`nil` is NULL), and returns its rows.
    ///
    /// - Throws: ``PostgresError`` with the server's message and SQLSTATE.
    @discardableResult
    func execute(_ sql: String, _ parameters: [String?] = []) throws(PostgresError) -> PostgresRows {
        try settle()
        let result: OpaquePointer?
        if parameters.isEmpty {
            result = fw_PQexec(handle, sql)
        } else {
            result = Self.withCStrings(parameters) { values in
                fw_PQexecParams(handle, sql, Int32(parameters.count), nil, values, nil, nil, 0)
            }
        }
        return try check(result, expecting: [PGRES_COMMAND_OK, PGRES_TUPLES_OK], sql: sql)
    }

    /// Runs `sql`, a `COPY ... FROM STDIN`, sending what `body` writes to the stream.
    ///
    /// - Parameter waiting: whether to wait for the server to have stored the rows; without it,
    ///   the server stores them while the caller goes on, and ``settle()`` (which every
    ///   statement calls first) reads the outcome.
    /// - Throws: ``PostgresError`` when the server refuses the statement or the data (the copy is
    ///   then abandoned), or what `body` throws (after telling the server the copy failed).
    func copy(_ sql: String, waiting: Bool = true, _ body: (inout PostgresCopyStream) throws -> Void) throws {
        try settle()
        try check(fw_PQexec(handle, sql), expecting: [PGRES_COPY_IN], sql: sql)
        var stream = PostgresCopyStream(connection: self)
        do {
            try body(&stream)
            try stream.flush()
        } catch {
            fw_PQputCopyEnd(handle, "abandoned by feedwork")
            while let result = fw_PQgetResult(handle) { fw_PQclear(result) }
            throw error
        }
        guard fw_PQputCopyEnd(handle, nil) == 1 else { throw failure("COPY could not be ended", sql: sql) }
        if waiting {
            try copyOutcome(sql)
        } else {
            unsettledCopy = sql
        }
    }

    /// Reads the outcome of a COPY sent without waiting (``copy(_:waiting:_:)``), if one is
    /// unread: the server's refusal of its rows is thrown here, and the connection is ready for
    /// the next statement either way.
    func settle() throws(PostgresError) {
        guard let sql = unsettledCopy else { return }
        unsettledCopy = nil
        try copyOutcome(sql)
    }

    /// Reads the results of a COPY whose data was all sent.
    private func copyOutcome(_ sql: String) throws(PostgresError) {
        var outcome: PostgresError?
        while let result = fw_PQgetResult(handle) {
            do {
                try check(result, expecting: [PGRES_COMMAND_OK], sql: sql)
            } catch {
                outcome = outcome ?? error
            }
        }
        if let outcome { throw outcome }
    }

    /// Sends `bytes` of a COPY in progress.
    fileprivate func send(_ bytes: UnsafeBufferPointer<UInt8>) throws(PostgresError) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        let sent = base.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
            fw_PQputCopyData(handle, $0, Int32(bytes.count))
        }
        guard sent == 1 else { throw failure("COPY data could not be sent", sql: "COPY") }
    }

    /// `result` as rows when its status is one of `expected`; else the server's error.
    @discardableResult
    private func check(_ result: OpaquePointer?, expecting expected: [ExecStatusType], sql: String)
        throws(PostgresError) -> PostgresRows
    {
        guard let result else { throw failure("no result", sql: sql) }
        let status = fw_PQresultStatus(result)
        guard expected.contains(status) else {
            var error = PostgresError(
                location: location, message: Self.text(fw_PQresultErrorMessage(result)), statement: sql)
            if let state = fw_PQresultErrorField(result, Int32(UInt8(ascii: "C"))) {
                error.sqlState = String(cString: state)
            }
            fw_PQclear(result)
            throw error
        }
        return PostgresRows(result: result)
    }

    private func failure(_ what: String, sql: String) -> PostgresError {
        PostgresError(location: location, message: "\(what): \(Self.text(fw_PQerrorMessage(handle)))", statement: sql)
    }

    /// libpq's message without its trailing newline.
    private static func text(_ message: UnsafePointer<CChar>?) -> String {
        guard let message else { return "unknown error" }
        return String(cString: message).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Calls `body` with `values` as C strings (NULL for `nil`), valid for the call.
    private static func withCStrings<T>(
        _ values: [String?], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> T
    ) -> T {
        let copies = values.map { $0.map { strdup($0) } ?? nil }
        defer { for copy in copies { free(copy) } }
        let pointers = copies.map { $0.map { UnsafePointer($0) } }
        return pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
    }
}

/// The data of a `COPY ... FROM STDIN`, buffered and sent in chunks of about 64 KB.
struct PostgresCopyStream {
    fileprivate let connection: PostgresConnection
    private var buffer: [UInt8] = []
    private static let chunk = 65_536

    fileprivate init(connection: PostgresConnection) {
        self.connection = connection
        buffer.reserveCapacity(Self.chunk + 4096)
    }

    /// Appends one row in COPY's text format (``encode(_:into:)``).
    mutating func appendRow(_ values: [String?]) throws(PostgresError) {
        Self.encode(values, into: &buffer)
        if buffer.count >= Self.chunk { try flush() }
    }

    /// Sends `text`, COPY data already encoded (``PostgresCopyBuffer``), in chunks.
    mutating func append(_ text: [UInt8]) throws(PostgresError) {
        try flush()
        let connection = connection
        try text.withUnsafeBufferPointer { (all) throws(PostgresError) in
            var start = 0
            while start < all.count {
                let end = min(start + Self.chunk, all.count)
                try connection.send(UnsafeBufferPointer(rebasing: all[start..<end]))
                start = end
            }
        }
    }

    /// Appends one row in COPY's text format to `buffer`: values separated by tabs, `\N` for
    /// NULL, and backslash, tab, newline and carriage return escaped.
    static func encode(_ values: [String?], into buffer: inout [UInt8]) {
        for (index, value) in values.enumerated() {
            if index > 0 { buffer.append(UInt8(ascii: "\t")) }
            guard let value else {
                buffer.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "N")])
                continue
            }
            appendEscaped(value, to: &buffer)
        }
        buffer.append(UInt8(ascii: "\n"))
    }

    /// Appends `value` to `buffer` with backslash, tab, newline and carriage return escaped.
    ///
    /// It reads the string's UTF-8 in place (`withUTF8`): the generic `utf8.contains(where:)`
    /// it replaces took about 500 instructions a value, most of the encoding of a pass's rows.
    static func appendEscaped(_ value: String, to buffer: inout [UInt8]) {
        var value = value
        value.withUTF8 { utf8 in
            // Most values hold nothing to escape: those are copied in one go.
            var clean = true
            for byte in utf8 where needsEscape(byte) {
                clean = false
                break
            }
            if clean {
                buffer.append(contentsOf: utf8)
            } else {
                appendEscaping(utf8, to: &buffer)
            }
        }
    }

    /// Appends `utf8` with every byte ``needsEscape(_:)`` names escaped.
    private static func appendEscaping(_ utf8: UnsafeBufferPointer<UInt8>, to buffer: inout [UInt8]) {
        for byte in utf8 {
            switch byte {
            case UInt8(ascii: "\\"): buffer.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case UInt8(ascii: "\t"): buffer.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case UInt8(ascii: "\n"): buffer.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case UInt8(ascii: "\r"): buffer.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            default: buffer.append(byte)
            }
        }
    }

    /// Whether `byte` must be escaped in COPY's text format.
    private static func needsEscape(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "\\") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\n")
            || byte == UInt8(ascii: "\r")
    }

    /// Sends what is buffered.
    mutating func flush() throws(PostgresError) {
        guard !buffer.isEmpty else { return }
        let connection = connection
        try buffer.withUnsafeBufferPointer { (bytes) throws(PostgresError) in try connection.send(bytes) }
        buffer.removeAll(keepingCapacity: true)
    }
}

/// The rows of a statement's result, read as text.
final class PostgresRows {
    private let result: OpaquePointer

    fileprivate init(result: OpaquePointer) { self.result = result }

    deinit { fw_PQclear(result) }

    /// The number of rows.
    var count: Int { Int(fw_PQntuples(result)) }

    /// The columns' names, in order.
    var columns: [String] { (0..<fw_PQnfields(result)).map { String(cString: fw_PQfname(result, $0)) } }

    /// The number of rows the statement changed (`UPDATE`, `DELETE`, `INSERT`).
    var changed: Int { Int(String(cString: fw_PQcmdTuples(result))) ?? 0 }

    /// The value at `row` and `column` as text; `nil` for NULL.
    subscript(row: Int, column: Int) -> String? {
        guard fw_PQgetisnull(result, Int32(row), Int32(column)) == 0 else { return nil }
        return String(cString: fw_PQgetvalue(result, Int32(row), Int32(column)))
    }

    /// The length in bytes of the value at `row` and `column` (0 for NULL), known before it is
    /// copied.
    func length(row: Int, column: Int) -> Int { Int(fw_PQgetlength(result, Int32(row), Int32(column))) }

    /// The first `count` bytes (at most) of the value at `row` and `column`, without copying the rest.
    func withPrefix<T>(row: Int, column: Int, count: Int, _ body: (UnsafeRawBufferPointer) -> T) -> T {
        let start = UnsafeRawPointer(fw_PQgetvalue(result, Int32(row), Int32(column)))
        return body(UnsafeRawBufferPointer(start: start, count: min(count, length(row: row, column: column))))
    }

    /// The type of `column` (its OID), to read its text back as the right value.
    func typeOID(ofColumn column: Int) -> UInt32 { UInt32(fw_PQftype(result, Int32(column))) }
}

/// A PostgreSQL failure: the server's message, its SQLSTATE and where it happened.
public struct PostgresError: Error, Sendable, CustomStringConvertible {
    /// The server, without its password.
    public var location: String
    public var message: String
    /// The SQLSTATE code (`40P01` deadlock, `23505` unique violation...), when the server sent one.
    public var sqlState: String?
    /// The statement that failed, for debugging; not part of the message.
    var statement: String?

    init(location: String, message: String, sqlState: String? = nil, statement: String? = nil) {
        self.location = location
        self.message = message
        self.sqlState = sqlState
        self.statement = statement
    }

    public var description: String { "PostgreSQL \(location): \(message)" }
}

extension PostgresRows {
    /// The first row's value in `column`, or `nil` when there is no row or it is NULL.
    func first(column: Int) -> String? { count > 0 ? self[0, column] : nil }
}

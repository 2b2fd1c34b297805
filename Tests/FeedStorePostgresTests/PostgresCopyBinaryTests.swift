import FeedKit
import FeedStore
import Foundation
import Testing

@testable import FeedStorePostgres

/// Values in COPY's binary format (``PostgresCopyBinary``) against a real server: each value
/// COPYed in binary must be stored as its text (``PostgresCopyText``) COPYed as text is, read
/// back as the server prints it; and a text binary cannot hold exactly is left to the server.
@Suite("PostgreSQL binary COPY values")
struct PostgresCopyBinaryTests {
    /// Stores `values` in a column of `type` by a binary COPY of their fields and by a text COPY
    /// of their texts, and returns both as the server prints them (`::text`, in UTC).
    func stored(_ values: [FieldValue], as type: ColumnType, _ connection: PostgresConnection) throws
        -> (binary: [String?], text: [String?])
    {
        try connection.execute("SET TimeZone TO 'UTC'")
        let sqlType = PostgresDialect.sqlType(type)
        try connection.execute("CREATE TABLE binary_copy (id bigint, v \(sqlType))")
        try connection.execute("CREATE TABLE text_copy (id bigint, v \(sqlType))")
        defer { _ = try? connection.execute("DROP TABLE binary_copy, text_copy") }
        var bytes = PostgresCopyBinary.header
        for (index, value) in values.enumerated() {
            PostgresCopyBinary.appendBigEndian(Int16(2), to: &bytes)
            PostgresCopyBinary.appendInteger(Int64(index), to: &bytes)
            #expect(PostgresCopyBinary.append(value, as: type, to: &bytes), "\(value) has no binary form")
        }
        bytes += PostgresCopyBinary.trailer
        try connection.copy("COPY binary_copy FROM STDIN (FORMAT binary)") { stream in try stream.append(bytes) }
        try connection.copy("COPY text_copy FROM STDIN") { stream in
            for (index, value) in values.enumerated() {
                try stream.appendRow([String(index), PostgresCopyText.text(value)])
            }
        }
        func read(_ table: String) throws -> [String?] {
            let rows = try connection.execute("SELECT v::text FROM \(table) ORDER BY id")
            return (0..<rows.count).map { rows[$0, 0] }
        }
        return (try read("binary_copy"), try read("text_copy"))
    }

    @Test func decimalsAreStoredAsTheirTextWithTheirScale() throws {
        let texts = [
            "0", "-0", "-0.00", "0.0001", "0.00001234", "-0.0001", "1", "-1", "9999", "10000", "10001", "-123.4500",
            "1.10", "100000000", "12345678.87654321", "007.50", "0.10000000000000000001",
            "12345678901234567890.123456789", "-99999999999999999999999999999999999999.99999999", "1000.0000",
            "0.000000000000000000000000000001", "NaN",
        ]
        try PostgresTestServer.withSchema { connection, _ in
            let stored = try stored(texts.map(FieldValue.text), as: .decimal, connection)
            #expect(stored.binary == stored.text)
            #expect(stored.binary[2] == "0.00", "zero is never negative")
            #expect(stored.binary[11] == "-123.4500", "trailing zeros are kept")
            #expect(stored.binary[15] == "7.50")
            #expect(stored.binary.last == "NaN")
        }
    }

    @Test func decimalsOfEveryWidthAndScaleAreStoredAsTheirText() throws {
        var generator = SeededGenerator(seed: 10_000)
        var texts: [String] = []
        for integerDigits in 1...13 {
            for fractionDigits in 0...13 {
                // Digits mostly zeros, so that whole base-10,000 digits are zero here and there.
                func digits(_ count: Int) -> String {
                    String(
                        (0..<count).map { _ in
                            Bool.random(using: &generator) ? "0" : "123456789".randomElement(using: &generator)!
                        })
                }
                let sign = Bool.random(using: &generator) ? "-" : ""
                texts.append(sign + digits(integerDigits) + (fractionDigits > 0 ? "." + digits(fractionDigits) : ""))
            }
        }
        texts.append(String(repeating: "9", count: 1000) + "." + String(repeating: "0", count: 999) + "1")
        try PostgresTestServer.withSchema { connection, _ in
            let stored = try stored(texts.map(FieldValue.text), as: .decimal, connection)
            #expect(stored.binary == stored.text)
        }
    }

    @Test func integersAndRealsInADecimalColumnAreStoredAsTheirText() throws {
        let values: [FieldValue] = [
            .integer(0), .integer(-42), .integer(Int64.max), .integer(Int64.min), .real(0.1), .real(-2.5), .real(.nan),
            .null,
        ]
        try PostgresTestServer.withSchema { connection, _ in
            let stored = try stored(values, as: .decimal, connection)
            #expect(stored.binary == stored.text)
            #expect(stored.binary[6] == nil, "NaN is NULL, as in text")
        }
    }

    @Test func decimalTextsOtherThanDigitsAndAPointAreLeftToTheServer() {
        let texts = [
            "1e5", "1E-3", ".5", "5.", "+1", " 1", "1 ", "", "-", "-.", "Infinity", "-Infinity", "nan", "1,5", "0x10",
            "1.2.3", String(repeating: "1", count: 1001),
        ]
        for text in texts {
            var bytes: [UInt8] = [7]
            #expect(!PostgresCopyBinary.appendNumeric(text, to: &bytes), "\(text)")
            #expect(bytes == [7], "nothing is appended for \(text)")
        }
        var bytes: [UInt8] = []
        #expect(!PostgresCopyBinary.append(.real(1e-5), as: .decimal, to: &bytes), "1e-05 is left to the server")
    }

    @Test func timestampsAreStoredAsTheirText() throws {
        let texts = [
            "2000-01-01T00:00:00Z", "1999-12-31T23:59:59.999999Z", "2024-01-01T00:00:05Z", "2026-11-29T18:35:18.123Z",
            "2026-11-29T18:35:18.1Z", "2026-11-29T18:35:18.12345Z", "0001-01-01T00:00:00Z", "9999-12-31T23:59:59Z",
            "1970-01-01T00:00:00Z", "1900-02-28T12:00:00Z", "2000-02-29T12:00:00Z", "2024-02-29T12:00:00+01:00",
            "2024-03-01 00:30:00-0230", "2024-01-01T00:00:00.5+14", "2024-06-30T23:59:59.000001-14:00",
            "1969-07-20T20:17:40Z", "1583-10-15T00:00:00Z", "2100-03-01T00:00:00Z",
        ]
        try PostgresTestServer.withSchema { connection, _ in
            let stored = try stored(texts.map(FieldValue.text), as: .timestamp, connection)
            #expect(stored.binary == stored.text)
            #expect(stored.binary[0] == "2000-01-01 00:00:00+00")
            #expect(stored.binary[11] == "2024-02-29 11:00:00+00")
        }
    }

    @Test func theStampsMicrosecondsCountFromTheYear2000() {
        #expect(PostgresCopyBinary.timestampMicroseconds("2000-01-01T00:00:00Z") == 0)
        #expect(PostgresCopyBinary.timestampMicroseconds("2000-01-01T00:00:00.001Z") == 1_000)
        #expect(PostgresCopyBinary.timestampMicroseconds("1999-12-31T23:59:59Z") == -1_000_000)
        #expect(PostgresCopyBinary.timestampMicroseconds("2000-01-02T01:00:00+01:00") == 86_400_000_000)
    }

    @Test func timestampTextsWithoutAZoneOrThatDoNotExistAreLeftToTheServer() {
        let texts = [
            "2024-01-01T00:00:00", "2024-01-01", "2024-01-01T24:00:00Z", "2024-01-01T23:59:60Z", "2023-02-29T00:00:00Z",
            "2024-04-31T00:00:00Z", "1900-02-29T00:00:00Z", "0000-01-01T00:00:00Z", "2024-01-01T00:00:00.1234567Z",
            "2024-01-01T00:00:00.Z", "2024-01-01t00:00:00Z", "2024-01-01T00:00:00z", "2024-01-01T00:00:00+15:00",
            "2024-01-01T00:00:00 UTC", "2024-01-01T00:00Z", "24-01-01T00:00:00Z", "2024-1-01T00:00:00Z",
            "2024-01-01T00:00:00+01:0", "2024-01-01T00:00:00+01:00:00", "",
        ]
        for text in texts {
            #expect(PostgresCopyBinary.timestampMicroseconds(text) == nil, "\(text)")
        }
    }

    @Test func datesAreStoredAsTheirText() throws {
        let texts = [
            "2000-01-01", "1999-12-31", "2024-02-29", "0001-01-01", "9999-12-31", "1970-01-01", "2100-02-28",
            "2000-02-29",
        ]
        try PostgresTestServer.withSchema { connection, _ in
            let stored = try stored(texts.map(FieldValue.text), as: .date, connection)
            #expect(stored.binary == stored.text)
            #expect(stored.binary == texts)
        }
        for text in ["2023-02-29", "2024-13-01", "2024-00-10", "2024-01-32", "2024-01-01T00:00:00Z", "01/02/2024"] {
            #expect(PostgresCopyBinary.dateDays(text) == nil, "\(text)")
        }
    }

    @Test func integersRealsBooleansTextsAndJSONAreStoredAsTheirText() throws {
        try PostgresTestServer.withSchema { connection, _ in
            let integers: [FieldValue] = [.integer(0), .integer(-1), .integer(Int64.max), .integer(Int64.min), .null]
            let integerCopies = try stored(integers, as: .integer, connection)
            #expect(integerCopies.binary == integerCopies.text)
            let reals: [FieldValue] = [
                .real(0.1), .real(-0.0), .real(1e300), .real(.leastNonzeroMagnitude), .real(.infinity),
                .real(-.infinity), .real(.nan), .integer(9_007_199_254_740_993), .integer(-3), .null,
            ]
            let realCopies = try stored(reals, as: .real, connection)
            #expect(realCopies.binary == realCopies.text)
            #expect(realCopies.binary[6] == nil, "NaN is NULL, as in text")
            let booleans: [FieldValue] = [.bool(true), .bool(false), .integer(1), .integer(0), .null]
            let booleanCopies = try stored(booleans, as: .boolean, connection)
            #expect(booleanCopies.binary == booleanCopies.text)
            let texts: [FieldValue] = [
                .text("a\tb\nc\\d"), .text("café 🍐"), .text(""), .integer(7), .bool(true), .real(2.5), .null,
            ]
            let textCopies = try stored(texts, as: .text, connection)
            #expect(textCopies.binary == textCopies.text)
            let documents: [FieldValue] = [
                .text(#"{"b": [1, "x\ty"], "a": null}"#), .text("[]"), .text("\"é\""), .integer(3), .null,
            ]
            let documentCopies = try stored(documents, as: .json, connection)
            #expect(documentCopies.binary == documentCopies.text)
        }
    }

    @Test func valuesOfAnotherTypeThanTheirColumnsAreLeftToTheServer() {
        let cases: [(FieldValue, ColumnType)] = [
            (.text("12"), .integer), (.real(5), .integer), (.bool(true), .integer), (.text("1.5"), .real),
            (.bool(true), .real), (.integer(2), .boolean), (.text("t"), .boolean), (.integer(1), .timestamp),
            (.integer(1), .date), (.bool(true), .decimal),
        ]
        for (value, type) in cases {
            var bytes: [UInt8] = []
            #expect(!PostgresCopyBinary.append(value, as: type, to: &bytes), "\(value) as \(type)")
        }
    }

    @Test func aRowWithAValueBinaryCannotHoldIsHeldAsText() {
        var buffer = PostgresCopyBuffer()
        for (key, price) in [("a", "1.50"), ("b", "1e5"), ("c", "2")] {
            buffer.append(key: key) { row in
                row.text(key)
                row.values([.text(price)], as: [.decimal])
            }
        }
        #expect(buffer.binaryKeys == ["a", "c"])
        #expect(buffer.textKeys == ["b"])
        #expect(String(decoding: buffer.text, as: UTF8.self) == "b\t1e5\n")
        #expect(buffer.count == 3)
    }

    @Test func theFirstPassStoresRowsHeldInBinaryAndAsTextAsTheirTextsSay() throws {
        let schema = EntitySchema(
            name: "priced",
            columns: [Column("id", .text, nullable: false), Column("price", .decimal), Column("at", .timestamp)],
            key: ["id"], children: [ChildSchema(name: "amounts", columns: [Column("amount", .decimal)])])
        try PostgresTestServer.withSchema { connection, namespace in
            try PostgresMigrations.migrate(connection, schema: namespace)
            try EntityTable.ensure(schema, on: PostgresSQLConnection(connection: connection))
            try connection.execute("SET TimeZone TO 'UTC'")
            let records = try [
                ("a", "1.50", "2024-01-01T00:00:05Z"), ("b", "1e5", "2024-01-01T01:00:00+01:00"),
                ("c", "-0.0001", "2024-01-01 00:00:05.25Z"),
            ].map {
                try EntityRecord(
                    schema: schema, values: [.text($0.0), .text($0.1), .text($0.2)],
                    children: ["amounts": [[.text($0.1)], [.text("2.0")]]])
            }
            let writer = PostgresEntityWriter(
                schema: schema, mode: .merge, feed: "prices", run: 1, stamp: "2026-11-29T18:35:18.123Z",
                connection: connection)
            try connection.execute("BEGIN")
            try writer.write(records, hashes: records.map { ContentHash.of($0, fields: ContentHash()) }, in: connection)
            try writer.sendDirect(connection)
            try connection.execute("COMMIT")
            #expect(writer.tally.counts.inserted == 3)
            let rows = try connection.execute(
                "SELECT id, price::text, at::text, _first_seen::text, _last_seen::text FROM priced ORDER BY id")
            #expect(
                (0..<rows.count).map { row in (0..<5).map { rows[row, $0] ?? "NULL" }.joined(separator: " | ") } == [
                    "a | 1.50 | 2024-01-01 00:00:05+00 | 2026-11-29 18:35:18.123+00 | 2026-11-29 18:35:18.123+00",
                    "b | 100000 | 2024-01-01 00:00:00+00 | 2026-11-29 18:35:18.123+00 | 2026-11-29 18:35:18.123+00",
                    "c | -0.0001 | 2024-01-01 00:00:05.25+00 | 2026-11-29 18:35:18.123+00 | 2026-11-29 18:35:18.123+00",
                ])
            let amounts = try connection.execute(
                "SELECT string_agg(_key || '/' || _position || '=' || amount::text, ' ' ORDER BY _key, _position) FROM priced__amounts"
            )
            #expect(amounts[0, 0] == "a/0=1.50 a/1=2.0 b/0=100000 b/1=2.0 c/0=-0.0001 c/1=2.0")
        }
    }
}

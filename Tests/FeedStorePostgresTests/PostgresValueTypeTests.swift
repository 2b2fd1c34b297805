import FeedKit
import FeedStore
import Testing

@testable import FeedStorePostgres

/// Values of PostgreSQL results read back as the SQLite store holds them (``StoreReading/query(_:arguments:)``).
@Suite("PostgreSQL values read as SQLite holds them")
struct PostgresValueTypeTests {
    @Test func timestampsBecomeISO8601InUTCWithAFractionOnlyWhenThereIsOneToTheMicrosecond() {
        #expect(PostgresValueType.iso8601("2026-01-10 10:10:00+00") == "2026-01-10T10:10:00Z")
        #expect(PostgresValueType.iso8601("2026-01-10 10:10:00.25+00") == "2026-01-10T10:10:00.250Z")
        #expect(PostgresValueType.iso8601("2026-01-10 10:10:00.1235+00") == "2026-01-10T10:10:00.1235Z")
        #expect(PostgresValueType.iso8601("2026-01-10 10:10:00.123456+00") == "2026-01-10T10:10:00.123456Z")
    }

    @Test func jsonLosesTheSpacesJsonbPrintsButKeepsThoseInStrings() {
        #expect(
            PostgresValueType.compact(#"{"a": [1, "x y"], "b": {"c": "\" :"}}"#) == #"{"a":[1,"x y"],"b":{"c":"\" :"}}"#
        )
    }

    @Test func booleansReadAsOneAndZero() {
        #expect(PostgresValueType(oid: 16).value("t") == .integer(1))
        #expect(PostgresValueType(oid: 16).value("f") == .integer(0))
        #expect(PostgresValueType(oid: 1700).value("0.10") == .text("0.10"), "numeric keeps its digits")
        #expect(PostgresValueType(oid: 20).value(nil) == .null)
    }
}

import FeedKit
import Foundation
import Testing

@testable import SingerFeed

@Suite("singer adapter: record mapping")
struct SingerRecordMappingTests {
    static func stream() throws -> SingerStream {
        let schema = try JSONParser.parse(
            #"{"properties":{"id":{"type":"integer"},"price":{"type":["null","number"]},"at":{"type":["null","string"],"format":"date-time"},"ok":{"type":"boolean"},"meta":{"type":["null","object"]},"name":{"type":"string"}}}"#
        )
        return try SingerSchemaMapping.stream("items", schema: schema, keyProperties: ["id"], bookmarkProperties: [])
    }

    static func map(_ json: String) throws -> (record: EntityRecord, unknown: [String]) {
        try SingerRecordMapping.record(try JSONParser.parse(json), of: try stream())
    }

    static func reason(_ json: String) -> String? {
        do {
            _ = try map(json)
            return nil
        } catch let error as RecordError {
            return "\(error.field ?? "-"): \(error.reason)"
        } catch {
            return "\(error)"
        }
    }

    @Test func valuesAreConvertedByTheirSchemaType() throws {
        let (record, unknown) = try Self.map(
            #"{"id":7,"price":1.50,"at":"2024-03-01T10:00:00+01:00","ok":true,"meta":{"a":[1]},"name":"x","extra":1}"#)
        #expect(record.key == "7")
        #expect(
            record.values == [
                .integer(7), .text("1.50"), .text("2024-03-01T09:00:00Z"), .bool(true), .text(#"{"a":[1]}"#),
                .text("x"),
            ])
        #expect(unknown == ["extra"])
    }

    @Test func missingPropertiesAreNull() throws {
        let (record, _) = try Self.map(#"{"id":1}"#)
        #expect(record.values.dropFirst().allSatisfy { $0.isNull })
    }

    @Test func aStringWhereTheSchemaSaysNumberIsAMismatch() {
        #expect(Self.reason(#"{"id":1,"price":"cheap"}"#) == "price: expected a number, found a string 'cheap'")
    }

    @Test func aFractionWhereTheSchemaSaysIntegerIsAMismatch() {
        #expect(Self.reason(#"{"id":1.5}"#) == "id: expected an integer, found a number 1.5")
    }

    @Test func aTextThatIsNoDateTimeIsAMismatch() {
        #expect(
            Self.reason(#"{"id":1,"at":"yesterday"}"#) == "at: expected a date-time string, found a string 'yesterday'")
    }

    @Test func nullWhereTheSchemaAllowsNoneIsAMismatch() {
        #expect(Self.reason(#"{"id":1,"ok":null}"#) == "ok: expected a boolean, found null")
    }

    @Test func aMissingKeyIsAMismatch() {
        #expect(Self.reason(#"{"name":"x"}"#) == "id: key property is missing or null")
    }

    @Test func aStreamWithoutKeyIsKeyedByTheRecordsValues() throws {
        let stream = try SingerSchemaMapping.stream(
            "log", schema: try JSONParser.parse(#"{"properties":{"line":{"type":"string"}}}"#), keyProperties: [],
            bookmarkProperties: [])
        let first = try SingerRecordMapping.record(try JSONParser.parse(#"{"line":"a"}"#), of: stream).record
        let again = try SingerRecordMapping.record(try JSONParser.parse(#"{"line":"a"}"#), of: stream).record
        let other = try SingerRecordMapping.record(try JSONParser.parse(#"{"line":"b"}"#), of: stream).record
        #expect(first.key == again.key)
        #expect(first.key != other.key)
    }
}

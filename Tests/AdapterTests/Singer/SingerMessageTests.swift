import FeedKit
import Foundation
import Testing

@testable import SingerFeed

@Suite("singer adapter: messages")
struct SingerMessageTests {
    static func parse(_ line: String) throws(SingerError.Reason) -> SingerMessage {
        try SingerMessage.parse(Data(line.utf8))
    }

    @Test func aSchemaMessageGivesItsStreamSchemaKeyAndBookmarks() throws {
        let message = try Self.parse(
            #"{"type":"SCHEMA","stream":"users","schema":{"properties":{}},"key_properties":["id"],"bookmark_properties":["at"]}"#
        )
        #expect(
            message
                == .schema(
                    stream: "users", schema: .object(JSONObject([("properties", .object(JSONObject([])))])),
                    keyProperties: ["id"], bookmarkProperties: ["at"]))
    }

    @Test func aRecordMessageGivesItsStreamAndRecord() throws {
        let message = try Self.parse(#"{"type":"RECORD","stream":"users","record":{"id":1},"time_extracted":"x"}"#)
        #expect(message == .record(stream: "users", record: .object(JSONObject([("id", .number("1"))]))))
    }

    @Test func aStateMessageGivesItsValue() throws {
        #expect(
            try Self.parse(#"{"type":"STATE","value":{"a":1}}"#) == .state(.object(JSONObject([("a", .number("1"))]))))
    }

    @Test func otherMessageTypesAreKeptByType() throws {
        #expect(
            try Self.parse(#"{"type":"ACTIVATE_VERSION","stream":"s","version":1}"#) == .other(type: "ACTIVATE_VERSION")
        )
    }

    @Test func aLineThatIsNotJSONIsMalformed() {
        #expect(throws: SingerError.Reason.self) { try Self.parse("Traceback (most recent call last)") }
    }

    @Test func aMessageWithoutTypeIsMalformed() {
        #expect(throws: SingerError.Reason.malformedLine(#"the message has no "type""#)) {
            try Self.parse(#"{"stream":"users"}"#)
        }
    }

    @Test func aRecordWithoutStreamIsMalformed() {
        #expect(throws: SingerError.Reason.malformedLine(#"a RECORD message needs a string "stream""#)) {
            try Self.parse(#"{"type":"RECORD","record":{}}"#)
        }
    }

    @Test func batchMessagesAreRefused() {
        #expect(throws: SingerError.Reason.self) { try Self.parse(#"{"type":"BATCH","stream":"s"}"#) }
    }
}

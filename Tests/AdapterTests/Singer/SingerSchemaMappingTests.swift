import FeedKit
import Foundation
import Testing

@testable import SingerFeed

@Suite("singer adapter: schema mapping")
struct SingerSchemaMappingTests {
    static func schema(_ properties: String) throws -> JSONValue {
        try JSONParser.parse(#"{"type":"object","properties":\#(properties)}"#)
    }

    static func columns(_ stream: SingerStream) -> [String] {
        stream.schema.columns.map { "\($0.name):\($0.type.rawValue)\($0.nullable ? "?" : "")" }
    }

    @Test func jsonSchemaTypesBecomeColumnTypes() throws {
        let stream = try SingerSchemaMapping.stream(
            "things",
            schema: try Self.schema(
                #"{"id":{"type":"integer"},"price":{"type":["null","number"]},"at":{"type":"string","format":"date-time"},"ok":{"type":"boolean"},"name":{"type":"string"},"meta":{"type":"object"},"tags":{"type":"array"},"mixed":{"type":["string","integer"]},"free":{}}"#
            ), keyProperties: ["id"], bookmarkProperties: [])
        #expect(
            Self.columns(stream) == [
                "id:integer", "price:decimal?", "at:timestamp?", "ok:boolean?", "name:text?", "meta:json?",
                "tags:json?",
                "mixed:json?", "free:json?",
            ])
        #expect(stream.schema.key == ["id"])
    }

    @Test func nullableUnionsAndAnyOfAreHandled() throws {
        let stream = try SingerSchemaMapping.stream(
            "s",
            schema: try Self.schema(
                #"{"a":{"anyOf":[{"type":"string","format":"date-time"},{"type":"null"}]},"b":{"type":["null","integer"]},"c":{"type":"integer"}}"#
            ), keyProperties: [], bookmarkProperties: [])
        #expect(stream.fields.map(\.kind) == [.timestamp, .integer, .integer])
        #expect(stream.fields.map(\.nullable) == [true, true, false])
    }

    @Test func integerOrNumberIsADecimal() {
        #expect(
            SingerSchemaMapping.kind(
                of: .object(JSONObject([("type", .array([.string("integer"), .string("number")]))]))
            ).kind == .decimal)
    }

    @Test func streamAndPropertyNamesAreMadeValidNames() throws {
        let stream = try SingerSchemaMapping.stream(
            "public-Users",
            schema: try Self.schema(
                #"{"created-at":{"type":"string"},"_sdc_batched_at":{"type":"string"},"ID":{"type":"integer"},"id":{"type":"integer"}}"#
            ),
            keyProperties: ["id"], bookmarkProperties: ["created-at"])
        #expect(stream.schema.name == "public_users")
        #expect(stream.schema.columns.map(\.name) == ["created_at", "sdc_batched_at", "ID", "id_2"])
        #expect(stream.schema.key == ["id_2"])
        #expect(stream.fields.map(\.property) == ["created-at", "_sdc_batched_at", "ID", "id"])
        #expect(stream.schema.columns[0].summary == "property 'created-at'; bookmark")
    }

    @Test func bookmarkPropertiesAreNotedInTheEntitySummary() throws {
        let stream = try SingerSchemaMapping.stream(
            "events", schema: try Self.schema(#"{"id":{"type":"integer"}}"#), keyProperties: ["id"],
            bookmarkProperties: ["id"])
        #expect(stream.schema.summary == "Singer stream 'events'; bookmark: id")
    }

    @Test func aStreamWithoutKeyPropertiesIsKeyedByContent() throws {
        let stream = try SingerSchemaMapping.stream(
            "log", schema: try Self.schema(#"{"line":{"type":"string"}}"#), keyProperties: [], bookmarkProperties: [])
        #expect(stream.keyedByContent)
        #expect(stream.schema.key.isEmpty)
    }

    @Test func aKeyPropertyTheSchemaDoesNotDefineIsAnError() throws {
        #expect(
            throws: SingerError.Reason.badSchema(stream: "s", message: "key property 'id' is not among its properties")
        ) {
            try SingerSchemaMapping.stream(
                "s", schema: try Self.schema(#"{"name":{"type":"string"}}"#), keyProperties: ["id"],
                bookmarkProperties: [])
        }
    }

    @Test func streamOptionsOverrideEntityKeyAndWriteMode() throws {
        let stream = try SingerSchemaMapping.stream(
            "users", schema: try Self.schema(#"{"id":{"type":"integer"},"email":{"type":"string"}}"#),
            keyProperties: ["id"], bookmarkProperties: [],
            options: SingerAdapter.StreamOptions(entity: "people", write: .replace, key: ["email"]))
        #expect(stream.schema.name == "people")
        #expect(stream.schema.key == ["email"])
        #expect(stream.binding.mode == .replace)
    }

    @Test func aCatalogGivesTheSelectedStreams() throws {
        let catalog = try JSONParser.parse(try TestFixtures.data("singer/catalog.json"))
        let streams = try SingerCatalog.streams(catalog)
        #expect(streams.map(\.name) == ["users", "order-lines"])
        #expect(streams.map(\.schema.name) == ["users", "order_lines"])
        #expect(streams.map(\.schema.key) == [["id"], ["orderId"]])
        #expect(streams[0].bookmarkProperties == ["signedUp"])
    }
}

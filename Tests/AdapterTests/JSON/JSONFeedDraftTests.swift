import FeedKit
import Testing

@testable import JSONFeed

/// The guesses `feedwork init --from` makes from a sample response.
@Suite("json adapter: a draft feed from a sample")
struct JSONFeedDraftTests {
    func draft(_ json: String) throws -> JSONFeedDraft {
        try #require(JSONFeedDraft(sample: try JSONParser.parse(json)))
    }

    @Test func aTopLevelListIsTheRecordsAtTheRoot() throws {
        #expect(try draft(#"[{"id":1},{"id":2}]"#).recordsPath == "$")
    }

    @Test func theLargestListOfObjectsWinsOverSmallerOnes() throws {
        let found = try draft(#"{"meta":{"errors":[{"code":1}]},"data":{"rows":[{"a":1},{"a":2},{"a":3}]}}"#)
        #expect(found.recordsPath == "$.data.rows")
    }

    @Test func anIdIsPreferredToAnEarlierUniqueField() throws {
        #expect(try draft(#"[{"name":"x","id":7},{"name":"y","id":8}]"#).key == "id")
    }

    @Test func withoutAnIdTheFirstUniqueScalarFieldIsTheKey() throws {
        #expect(try draft(#"[{"kind":"a","code":"X1"},{"kind":"a","code":"X2"}]"#).key == "code")
    }

    @Test func noUniqueFieldLeavesTheKeyToTheUser() throws {
        let found = try draft(#"[{"kind":"a"},{"kind":"a"}]"#)
        #expect(found.key == nil)
        #expect(
            found.yaml(feed: "f", url: "u.json", entity: "e").contains("choose the field(s) that identify a record"))
    }

    @Test func aFieldThatIsOnlyNullIsTextWithANote() throws {
        let field = try #require(try draft(#"[{"id":1,"note":null}]"#).fields.last)
        #expect(field.declaration == "string")
        #expect(field.note == "only null in the sample")
    }

    @Test func aSampleWithNoListOfObjectsGivesNoDraft() throws {
        #expect(JSONFeedDraft(sample: try JSONParser.parse(#"{"names":["a","b"]}"#)) == nil)
    }
}

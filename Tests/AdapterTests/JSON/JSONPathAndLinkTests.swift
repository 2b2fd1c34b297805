import FeedEngine
import FeedFixtures
import FeedKit
import Testing

@testable import JSONFeed

@Suite("json adapter: paths and links")
struct JSONPathAndLinkTests {
    @Test func pathsCompileToSteps() throws {
        #expect(try JSONPath(parsing: "$").steps.isEmpty)
        #expect(try JSONPath(parsing: "$.data.items").steps == [.key("data"), .key("items")])
        #expect(try JSONPath(parsing: "cost.amount") == (try JSONPath(parsing: "$.cost.amount")))
        #expect(try JSONPath(parsing: "$.rows[2]['odd.name']").steps == [.key("rows"), .index(2), .key("odd.name")])
    }

    @Test func malformedPathsAreRefused() {
        for text in ["", "$..a", ".a", "a[", "a[x]", "a.", "$.a[1", "a['b'"] {
            #expect(throws: JSONPathError.self, "\(text)") { try JSONPath(parsing: text) }
        }
    }

    @Test func lookupsFollowKeysAndIndexes() throws {
        let document = try JSONParser.parse(#"{"a":{"b":[{"c":1},{"c":2}]}}"#)
        #expect(try JSONPath(parsing: "a.b[1].c").lookup(document) == .number("2"))
        #expect(try JSONPath(parsing: "a.b[5].c").lookup(document) == nil)
        #expect(try JSONPath(parsing: "a.b.c").lookup(document) == nil)
    }

    @Test func linkHeaderFindsTheNextRelation() {
        let header =
            #"<https://x/items?page=1>; rel="first", <https://x/items?page=3>; rel="next last", <https://x/p>; rel=prev"#
        #expect(LinkHeader.target(of: header, relation: "next") == "https://x/items?page=3")
        #expect(LinkHeader.target(of: header, relation: "prev") == "https://x/p")
        #expect(LinkHeader.target(of: #"<https://x/a>; rel="first""#, relation: "next") == nil)
        #expect(
            LinkHeader.target(of: #"<https://x/a,b>; title="a, b"; rel="next""#, relation: "next") == "https://x/a,b")
    }

    @Test func relativeLinksResolveAgainstTheCurrentPage() {
        #expect(Paginator.resolve("items?page=2", against: "https://x/v1/items?q=1") == "https://x/v1/items?page=2")
        #expect(Paginator.resolve("/v2/items", against: "https://x/v1/items") == "https://x/v2/items")
        #expect(Paginator.resolve("page-2.json", against: "Fixtures/page-1.json") == "Fixtures/page-2.json")
    }

    @Test func decimalsAlreadyInStoredFormSkipParsing() {
        for text in ["12.34", "12.50", "0.00", "0.5", "-7", "1500"] {
            #expect(ValueConverter.normalDecimal(text) == text)
        }
        for text in ["1e3", "-0", "-0.00", "007", ".5", "1.", "+1", "1.2.3"] {
            #expect(ValueConverter.normalDecimal(text) == nil, "\(text)")
        }
    }
}

import FeedKit
import Foundation
import Testing

/// `JSONParser.parse(_:visitingElementsAt:_:)`: the elements of the array at a path are handed
/// over one at a time as they are read and left out of the document, so a page's records are
/// never all held as parsed values at once.
@Suite struct JSONVisitingParseTests {
    /// Parses `text`, visiting the array at `path`: the document, the count, and the visited
    /// elements as JSON text with their indexes.
    private func visit(_ text: String, at path: [String]) throws -> (JSONValue, Int?, [String]) {
        var seen: [String] = []
        let (document, visited) = try JSONParser.parse(Data(text.utf8), visitingElementsAt: path) { index, element in
            seen.append("\(index):\(element.jsonText)")
        }
        return (document, visited, seen)
    }

    @Test func theElementsAtThePathAreHandedOverInOrderAndLeftOut() throws {
        let (document, visited, seen) = try visit(
            #"{"data": {"items": [{"id": 1}, {"id": 2, "tags": [3]}, 7], "next": "b"}, "total": 3}"#,
            at: ["data", "items"])
        #expect(seen == [#"0:{"id":1}"#, #"1:{"id":2,"tags":[3]}"#, "2:7"])
        #expect(visited == 3)
        #expect(document["data"]?["items"] == .array([]))
        #expect(document["data"]?["next"] == .string("b"))
        #expect(document["total"] == .number("3"))
    }

    @Test func aTopLevelArrayAndAnEmptyOne() throws {
        let (document, visited, seen) = try visit(#"[{"a": 1}, {"a": 2}]"#, at: [])
        #expect(seen == [#"0:{"a":1}"#, #"1:{"a":2}"#])
        #expect(visited == 2)
        #expect(document == .array([]))
        let (_, none, nothing) = try visit(#"{"items": []}"#, at: ["items"])
        #expect(none == 0)
        #expect(nothing.isEmpty)
    }

    /// What is not an array at the path stays in the document, and nothing is visited.
    @Test func noArrayAtThePathVisitsNothing() throws {
        let (object, visited, seen) = try visit(#"{"items": {"id": 1}}"#, at: ["items"])
        #expect(visited == nil)
        #expect(seen.isEmpty)
        #expect(object["items"]?["id"] == .number("1"))
        let (_, missing, _) = try visit(#"{"other": [1]}"#, at: ["items"])
        #expect(missing == nil)
    }

    /// A body that breaks after some elements fails with the position, as a whole parse does.
    @Test func aBrokenBodyFailsWithItsPosition() throws {
        let text = "{\"items\": [{\"id\": 1},\n {\"id\": }]}"
        var error: JSONParseError?
        do {
            _ = try visit(text, at: ["items"])
        } catch let caught as JSONParseError {
            error = caught
        }
        var whole: JSONParseError?
        do {
            _ = try JSONParser.parse(text)
        } catch {
            whole = error
        }
        #expect(error != nil)
        #expect(error?.line == 2)
        #expect(error?.description == whole?.description)
    }
}

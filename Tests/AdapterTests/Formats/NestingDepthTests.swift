import FeedKit
import Foundation
import Testing

/// A document nested a million levels deep is a clear error of the parser that reads it, not
/// a tree that overflows the stack of whatever walks or frees it.
@Suite("parsers: nesting depth")
struct NestingDepthTests {
    static let levels = 1_000_000

    /// `<a>` opened `levels` times and closed as often.
    static func nestedXML(_ levels: Int) -> Data {
        var text = "<?xml version=\"1.0\"?>"
        text.reserveCapacity(levels * 7 + 32)
        for _ in 0..<levels { text += "<a>" }
        for _ in 0..<levels { text += "</a>" }
        return Data(text.utf8)
    }

    /// `[` opened `levels` times and closed as often.
    static func nestedJSON(_ levels: Int) -> Data {
        Data(String(repeating: "[", count: levels).utf8) + Data(String(repeating: "]", count: levels).utf8)
    }

    @Test func xmlNestedAMillionLevelsDeepIsAnErrorWithItsPlace() throws {
        let error = #expect(throws: XMLReadError.self) { try XMLReader.parse(Self.nestedXML(Self.levels)) }
        #expect(error?.message == "elements nested more than \(XMLReader.maximumDepth) levels deep")
        #expect(error?.line == 1)
        // The 513th `<a>`, after the 21 characters of the declaration.
        #expect(error?.column == 22 + 3 * XMLReader.maximumDepth)
    }

    @Test func xmlNestedToTheBoundIsRead() throws {
        let document = try XMLReader.parse(Self.nestedXML(XMLReader.maximumDepth))
        var depth = 0
        var value: JSONValue? = document
        while let inner = value?["a"] {
            depth += 1
            value = inner
        }
        #expect(depth == XMLReader.maximumDepth)
    }

    @Test func jsonNestedAMillionLevelsDeepIsAnErrorWithItsPlace() throws {
        let error = #expect(throws: JSONParseError.self) { try JSONParser.parse(Self.nestedJSON(Self.levels)) }
        #expect(error?.description.contains("nested more than \(JSONParser.maximumDepth) levels deep") == true)
    }

    /// CSV does not nest: a quoted field of a million doubled quotes is one field, read without recursion.
    @Test func csvQuotesAMillionDeepAreOneField() throws {
        let quotes = String(repeating: "\"\"", count: Self.levels)
        let rows = try CSVReader.parse(Data("name\n\"\(quotes)\"\n".utf8))
        #expect(rows.arrayValue?.first?["name"]?.stringValue?.count == Self.levels)
    }
}

import FeedKit
import Foundation
import Testing

/// XML documents read into the tree the json adapter walks: attributes as `@name`, local names,
/// repeated elements as lists, exact text.
@Suite("XML reader")
struct XMLReaderTests {
    static func parse(_ text: String) throws -> JSONValue { try XMLReader.parse(Data(text.utf8)) }

    @Test func theECBDailyRatesReadAsNestedCubesWithTheirAttributes() throws {
        let document = try XMLReader.parse(try Data(contentsOf: AdapterFixtures.url("Currency", "ecb-daily.xml")))
        let day = try #require(document["Envelope"]?["Cube"]?["Cube"])
        #expect(day["@time"] == .string("2017-03-08"))
        let rates = try #require(day["Cube"]?.arrayValue)
        #expect(rates.count == 31)
        #expect(rates.first == .object(JSONObject([("@currency", .string("USD")), ("@rate", .string("1.0556"))])))
        #expect(rates.contains { $0["@currency"] == .string("HUF") && $0["@rate"] == .string("310.70") })
        #expect(document["Envelope"]?["Sender"]?["name"] == .string("European Central Bank"))
    }

    @Test func namespacePrefixesAreDroppedAndDeclarationsAreNotAttributes() throws {
        let document = try Self.parse(#"<a:root xmlns:a="urn:a" xmlns="urn:b" a:id="7"><a:item>x</a:item></a:root>"#)
        #expect(
            document
                == .object(
                    JSONObject([("root", .object(JSONObject([("@id", .string("7")), ("item", .string("x"))])))])))
    }

    @Test func aRepeatedElementIsAListInDocumentOrderAndASingleOneIsNot() throws {
        let document = try Self.parse("<r><one>1</one><many>a</many><other/><many>b</many></r>")
        let root = try #require(document["r"]?.objectValue)
        #expect(root.members.map(\.key) == ["one", "many", "other"])
        #expect(root["one"] == .string("1"))
        #expect(root["many"] == .array([.string("a"), .string("b")]))
        #expect(root["other"] == .null)
    }

    @Test func textBesideAttributesOrChildrenIsHashText() throws {
        let document = try Self.parse(#"<r><price currency="EUR"> 12.50 </price></r>"#)
        #expect(document["r"]?["price"]?["#text"] == .string("12.50"))
        #expect(document["r"]?["price"]?["@currency"] == .string("EUR"))
    }

    @Test func referencesAreDecodedAndCDATAIsKeptAsWritten() throws {
        let document = try Self.parse(
            "<r t='&lt;&amp;&#233;&#x41;&quot;'><a>&apos;x&gt;</a><b><![CDATA[<b>&amp;</b>]]></b></r>")
        #expect(document["r"]?["@t"] == .string("<&éA\""))
        #expect(document["r"]?["a"] == .string("'x>"))
        #expect(document["r"]?["b"] == .string("<b>&amp;</b>"))
    }

    @Test func commentsProcessingInstructionsAndADoctypeAreSkipped() throws {
        let document = try Self.parse(
            "<?xml version=\"1.0\"?>\n<!DOCTYPE r [<!ENTITY e \"x\">]>\n<!-- c --><r><?pi x?><a>1</a><!-- d --></r>\n")
        #expect(document == .object(JSONObject([("r", .object(JSONObject([("a", .string("1"))])))])))
    }

    @Test func aDeclaredLatin1DocumentIsReadInItsEncoding() throws {
        var data = Data("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><r>caf".utf8)
        data.append(0xE9)
        data.append(contentsOf: Array("</r>".utf8))
        #expect(try XMLReader.parse(data)["r"] == .string("café"))
    }

    @Test(arguments: [
        ("<r><a></r>", 1, 7, "'</r>' closes '<a>'"),
        ("<r>\n  <a>x</a>\n  <b>", 3, 6, "'<b>' is not closed"),
        ("<r>&nbsp;</r>", 1, 4, "'&nbsp;' is not one XML defines"),
        ("<r/><s/>", 1, 5, "a second root element"),
        ("<r a=1/>", 1, 6, "expected a quoted attribute value"),
        ("", 1, 1, "the document has no element"),
    ])
    func aMalformedDocumentIsAnErrorWithItsLineAndColumn(text: String, line: Int, column: Int, message: String) {
        #expect {
            try Self.parse(text)
        } throws: { error in
            guard let error = error as? XMLReadError else { return false }
            return error.line == line && error.column == column && error.message.contains(message)
        }
    }

    @Test func anUnknownDeclaredEncodingIsAnError() {
        #expect(throws: XMLReadError.self) {
            try Self.parse("<?xml version=\"1.0\" encoding=\"EBCDIC\"?><r/>")
        }
    }
}

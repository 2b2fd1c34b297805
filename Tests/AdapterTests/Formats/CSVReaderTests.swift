import FeedKit
import Foundation
import Testing

/// CSV documents read into a list of objects named by the header row, every value its exact text.
@Suite("CSV reader")
struct CSVReaderTests {
    static func parse(_ text: String, _ dialect: CSVDialect = CSVDialect()) throws -> JSONValue {
        try CSVReader.parse(Data(text.utf8), dialect: dialect)
    }

    static func row(_ members: [(String, JSONValue)]) -> JSONValue { .object(JSONObject(members)) }

    @Test func theHeaderNamesEachRowsMembersAndValuesKeepTheirText() throws {
        let rows = try Self.parse("currency,rate\nUSD,1.0556\nHUF,310.70\n")
        #expect(
            rows
                == .array([
                    Self.row([("currency", .string("USD")), ("rate", .string("1.0556"))]),
                    Self.row([("currency", .string("HUF")), ("rate", .string("310.70"))]),
                ]))
    }

    @Test func quotedFieldsHoldDelimitersDoubledQuotesAndLineBreaks() throws {
        let rows = try Self.parse("id,text\n1,\"a, \"\"b\"\"\nc\"\n2,plain\n")
        #expect(rows[0]?["text"] == .string("a, \"b\"\nc"))
        #expect(rows[1]?["id"] == .string("2"))
    }

    @Test func anEmptyFieldIsNullAndAQuotedEmptyFieldIsEmptyText() throws {
        let rows = try Self.parse("a,b,c\n,\"\",x\n")
        #expect(rows[0] == Self.row([("a", .null), ("b", .string("")), ("c", .string("x"))]))
    }

    @Test func crlfLineEndingsAndBlankLinesAreAccepted() throws {
        let rows = try Self.parse("a,b\r\n1,2\r\n\r\n3,4")
        #expect(rows.arrayValue?.count == 2)
        #expect(rows[1]?["b"] == .string("4"))
    }

    @Test func aSemicolonDelimitedLatin1FileIsReadInItsEncoding() throws {
        let data = try TestFixtures.data("formats/latin1-semicolon.csv")
        let rows = try CSVReader.parse(data, dialect: CSVDialect(delimiter: UInt8(ascii: ";"), encoding: "latin1"))
        #expect(
            rows[0]
                == Self.row([("code", .string("CAFÉ")), ("name", .string("Café crème")), ("price", .string("2,50"))]))
    }

    @Test func withoutAHeaderColumnsAreNamedByPosition() throws {
        let rows = try Self.parse("x,y\n", CSVDialect(header: false))
        #expect(rows[0] == Self.row([("1", .string("x")), ("2", .string("y"))]))
    }

    @Test(arguments: [
        ("a,b\n1,2\n3,4,5\n", 3, "the row has 3 fields, the header 2"),
        ("a,b\n1,\"open\n2,3\n", 2, "a quoted field is not closed"),
        ("a,a\n1,2\n", 1, "names the column 'a' twice"),
        ("a,b\n\"x\"y,2\n", 2, "a quoted field is followed by text"),
    ])
    func aMalformedDocumentIsAnErrorNamingItsLine(text: String, line: Int, message: String) {
        #expect {
            try Self.parse(text)
        } throws: { error in
            guard let error = error as? CSVReadError else { return false }
            return error.line == line && error.message.contains(message)
        }
    }
}

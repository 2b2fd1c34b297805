import FeedKit
import Testing

/// `JSONValue.indentedJSONText`: JSON for people, as it was written.
@Suite struct IndentedJSONTextTests {
    @Test func numbersKeepTheirLiteralAndMembersTheirOrder() throws {
        let value = try JSONParser.parse(#"{"z":12.50,"a":[1,{"big":12345678901234567890}],"e":{},"n":[]}"#)
        #expect(
            value.indentedJSONText == """
                {
                  "z": 12.50,
                  "a": [
                    1,
                    {
                      "big": 12345678901234567890
                    }
                  ],
                  "e": {},
                  "n": []
                }
                """)
    }

    @Test func aScalarIsItsJSONText() throws {
        #expect(try JSONParser.parse(#""a\"b""#).indentedJSONText == #""a\"b""#)
    }
}

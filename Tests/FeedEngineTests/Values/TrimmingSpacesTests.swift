import FeedKit
import Foundation
import Testing

/// Durations, byte sizes and date templates in feeds.yaml are trimmed of spaces and tabs at
/// their ends without Foundation, exactly as `trimmingCharacters(in: .whitespaces)` would.
@Suite("Trimming spaces")
struct TrimmingSpacesTests {
    @Test(arguments: [
        "", " ", "\t", "  today  ", "\ttoday+1d\t", "a b", " a b ", "\u{A0}1h\u{A0}", "\u{3000}30m\u{2003}",
        "\n1h\n", " \n1h\n ", "x\u{301} ", " \u{301}x", "\u{2028}now", "é ", "  \t  ",
    ])
    func trimsWhatFoundationTrims(_ text: String) {
        #expect(text.trimmingSpaces == text.trimmingCharacters(in: .whitespaces))
        let padded = "|" + text + "|"
        let inner = padded.dropFirst().dropLast()
        #expect(inner.trimmingSpaces == inner.trimmingCharacters(in: .whitespaces))
    }

    @Test func durationsAndTemplatesReadTheTrimmedText() throws {
        #expect(FeedDuration(parsing: " \t90s\u{A0}") == .seconds(90))
        let template = try TemplatedString(parsing: "{{ today + 1d | yyyy }}")
        #expect(template.render(now: Date(timeIntervalSince1970: 0)) == "1970")
    }
}

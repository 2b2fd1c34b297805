import FeedKit

/// The words a user searches an entity's full-text index for (`?q=` in `feedwork serve`,
/// `feedwork export --search`): a row matches when its `search:` columns hold every word,
/// whatever the case; the rows holding them most come first.
///
/// Text is split into words as the index splits it (``SearchIndex``): runs of letters and
/// digits, so punctuation and operators in the text are only separators, never syntax.
public struct SearchQuery: Sendable, Hashable {
    /// The text as the user gave it.
    public var text: String
    /// Its words, lowercased, each once, in order.
    public var words: [String]

    /// - Throws: a usage ``ExportError`` when `text` holds no word (only spaces or punctuation).
    public init(_ text: String) throws(ExportError) {
        self.text = text
        var seen: Set<String> = []
        words = Self.runs(of: text).filter(\.isWord).map { $0.text.lowercased() }
            .filter { seen.insert($0).inserted }
        guard !words.isEmpty else {
            throw .usage("search '\(text)': no word to search for (words are letters and digits)")
        }
    }

    /// The words as one FTS5 query: each a quoted string, all of which must match.
    package var ftsMatch: String { words.map { "\"" + $0 + "\"" }.joined(separator: " ") }

    /// The words as the text `plainto_tsquery` reads: all of them must match.
    package var plainText: String { words.joined(separator: " ") }

    /// `text` cut into runs of word characters (letters and digits), which is how the index
    /// reads words, and runs of the others; together they are the whole text, in order.
    public static func runs(of text: String) -> [(text: Substring, isWord: Bool)] {
        var runs: [(text: Substring, isWord: Bool)] = []
        var start = text.startIndex
        var index = text.startIndex
        var inWord = false
        while index < text.endIndex {
            let isWord = text[index].isLetter || text[index].isNumber
            if index != start, isWord != inWord {
                runs.append((text[start..<index], inWord))
                start = index
            }
            inWord = isWord
            index = text.index(after: index)
        }
        if start < text.endIndex { runs.append((text[start..<text.endIndex], inWord)) }
        return runs
    }
}

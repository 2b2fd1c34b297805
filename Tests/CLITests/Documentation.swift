import Foundation

/// The repository's Markdown documentation (README.md and the pages under docs/), as the tests
/// that run or parse its examples read it.
enum Documentation {
    /// The root of the checkout.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The text of the page at `path` (relative to the root); empty when it cannot be read.
    static func text(_ path: String) -> String {
        (try? String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)) ?? ""
    }

    /// README.md, then every Markdown page under docs/, in path order.
    static var pages: [String] {
        let docs = root.appendingPathComponent("docs")
        let found = FileManager.default.enumerator(atPath: docs.path)?.compactMap { $0 as? String } ?? []
        return ["README.md"] + found.filter { $0.hasSuffix(".md") }.sorted().map { "docs/" + $0 }
    }

    /// The lines of `path` from its heading `heading` (a whole line) to the next heading outside
    /// a fenced block; empty when the page has no such heading.
    static func section(_ heading: String, of path: String) -> [String] {
        let lines = text(path).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let start = lines.firstIndex(of: heading) else { return [] }
        var section: [String] = []
        var inFence = false
        for line in lines[(start + 1)...] {
            if line.trimmingCharacters(in: .whitespaces).hasPrefix("```") { inFence.toggle() }
            if !inFence, line.hasPrefix("#") { break }
            section.append(line)
        }
        return section
    }
}

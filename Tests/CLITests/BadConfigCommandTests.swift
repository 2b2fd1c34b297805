import Foundation
import Testing

/// The bad config corpus (Tests/AdapterTests/Fixtures/bad-configs) through the binary: every
/// file makes `feedwork run` exit with status 2, print `feeds.yaml:LINE:COLUMN: error: ...` and
/// write nothing (no store, no lock file).
@Suite("Reliability: bad configs through the binary", .serialized)
struct BadConfigCommandTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("AdapterTests/Fixtures/bad-configs")

    static let files: [String] =
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.hasSuffix(".yaml") }
        .sorted()

    @Test func theCorpusIsThere() async { #expect(Self.files.count >= 30) }

    @Test(arguments: files)
    func aBrokenConfigExitsWithStatusTwoAndWritesNothing(_ file: String) async throws {
        let data = try Data(contentsOf: Self.folder.appendingPathComponent(file))
        try await expectRefused(data)
    }

    @Test func aTenMegabyteConfigExitsWithStatusTwoAndWritesNothing() async throws {
        let comment = "# " + String(repeating: "padding ", count: 12) + "\n"
        let text =
            "feeds:\n  - { name: fruit, adapter: fruit, url: data.json }\n"
            + String(repeating: comment, count: 10 * 1024 * 1024 / comment.utf8.count + 1)
        let stderr = try await expectRefused(Data(text.utf8))
        #expect(stderr.contains("8388608-byte limit"))
    }

    @Test func anAliasBombExitsWithStatusTwoAndWritesNothing() async throws {
        let names = ["a", "b", "c", "d", "e", "f", "g", "h", "i"]
        var lines = ["a: &a [" + Array(repeating: "\"lol\"", count: 10).joined(separator: ", ") + "]"]
        for (previous, name) in zip(names, names.dropFirst()) {
            lines.append(
                "\(name): &\(name) [" + Array(repeating: "*\(previous)", count: 10).joined(separator: ", ") + "]")
        }
        lines.append("feeds:\n  - { name: fruit, adapter: fruit, url: data.json, extra: *i }")
        let stderr = try await expectRefused(Data(lines.joined(separator: "\n").utf8))
        #expect(stderr.contains("expands to more than 1000000 nodes"))
    }

    @Test(arguments: ["[", "{a: ", "- "])
    func validateRefusesAConfigNestedHundredsOfThousandsOfLevelsDeep(_ opening: String) async throws {
        let directory = try FeedworkProcess.makeFolder("cfg")
        defer { try? FileManager.default.removeItem(at: directory) }
        let levels = 1_000_000 / (opening.utf8.count + 1)
        let text =
            "feeds:\n  - name: deep\n    adapter: fruit\n    url: data.json\n    extra: "
            + (opening == "- " ? "\n      " : "") + String(repeating: opening, count: levels)
        try Data(text.utf8).write(to: directory.appendingPathComponent("feeds.yaml"))
        let result = try await FeedworkProcess.run(["validate"], in: directory)
        #expect(result.status == 2, "\(result.stdout)\(result.stderr.prefix(500))")
        #expect(
            result.stderr.range(
                of: #"feeds\.yaml:[56]:[0-9]+: error: the YAML is nested more than 512 levels deep"#,
                options: .regularExpression) != nil, "\(result.stderr.prefix(500))")
        let left = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(left == ["feeds.yaml"], "nothing else is written")
    }

    @Test func validateRefusesFeedsThatDependOnEachOtherAtTheDependencyThatClosesTheCycle() async throws {
        let directory = try FeedworkProcess.makeFolder("cfg")
        defer { try? FileManager.default.removeItem(at: directory) }
        let data = try Data(contentsOf: Self.folder.appendingPathComponent("depends-on-cycle.yaml"))
        try data.write(to: directory.appendingPathComponent("feeds.yaml"))
        let result = try await FeedworkProcess.run(["validate"], in: directory)
        #expect(result.status == 2, "\(result.stdout)\(result.stderr)")
        #expect(
            result.stderr.contains(
                "feeds.yaml:9:18: error: feeds depend on each other in a cycle (apples -> pears -> apples)"),
            "\(result.stderr)")
    }

    /// Runs `feedwork run` on `config` as feeds.yaml in a fresh folder; returns its stderr.
    @discardableResult
    private func expectRefused(_ config: Data, sourceLocation: SourceLocation = #_sourceLocation) async throws
        -> String
    {
        let directory = try FeedworkProcess.makeFolder("cfg")
        defer { try? FileManager.default.removeItem(at: directory) }
        try config.write(to: directory.appendingPathComponent("feeds.yaml"))
        let result = try await FeedworkProcess.run(["run"], in: directory)
        #expect(result.status == 2, "\(result.stderr)", sourceLocation: sourceLocation)
        let first = result.stderr.split(separator: "\n").first.map(String.init) ?? ""
        #expect(
            first.range(of: #"^feeds\.yaml:[0-9]+:[0-9]+: error: "#, options: .regularExpression) != nil,
            "\(result.stderr)", sourceLocation: sourceLocation)
        let left = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(left == ["feeds.yaml"], "nothing else is written", sourceLocation: sourceLocation)
        return result.stderr
    }
}

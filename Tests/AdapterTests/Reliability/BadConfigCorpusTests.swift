import ClassifiedFeed
import CurrencyFeed
import DestinationFeed
import FeedEngine
import FeedFixtures
import FeedKit
import Foundation
import FruitFeed
import Testing

/// Broken feeds.yaml files, each listed in `Fixtures/bad-configs/expected.txt` with the
/// `line:column` and words of the problem it must produce. Two more are made at test time: a
/// 10 MB file and a YAML alias bomb. The CLI's BadConfigCommandTests runs the same files through
/// the binary for exit status 2 and an untouched folder.
@Suite("Reliability: bad config corpus", .serialized)
struct BadConfigCorpusTests {
    /// One broken config and the problem it must produce.
    struct BadConfig: Sendable, CustomTestStringConvertible {
        var file: String
        var line: Int
        var column: Int
        var words: String
        var testDescription: String { file }
    }

    static let folder = TestFixtures.directory.appendingPathComponent("bad-configs")

    static let corpus: [BadConfig] = {
        let text = (try? String(contentsOf: folder.appendingPathComponent("expected.txt"), encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line -> BadConfig? in
            guard !line.hasPrefix("#") else { return nil }
            let parts = line.split(separator: "|", maxSplits: 2).map { $0.trimmingCharacters(in: .whitespaces) }
            let place = parts.count == 3 ? parts[1].split(separator: ":").compactMap { Int($0) } : []
            guard place.count == 2 else { return nil }
            return BadConfig(file: parts[0], line: place[0], column: place[1], words: parts[2])
        }
    }()

    let loader = ConfigLoader(
        registry: AdapterRegistry([
            FruitAdapter.self, DestinationAdapter.self, ClassifiedAdapter.self, CurrencyAdapter.self,
        ]), environment: [:])

    @Test func theCorpusHasAtLeastThirtyFilesAllListed() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.folder.path).filter {
            $0.hasSuffix(".yaml")
        }
        #expect(files.count >= 30)
        #expect(files.sorted() == Self.corpus.map(\.file).sorted())
    }

    @Test(arguments: corpus)
    func aBrokenConfigIsRefusedWithFileLineAndColumn(_ config: BadConfig) throws {
        let path = Self.folder.appendingPathComponent(config.file).path
        let error = try #require(throws: ConfigError.self) { try loader.load(path: path) }
        let problem = error.problems.first { $0.location.line == config.line && $0.location.column == config.column }
        #expect(problem?.message.contains(config.words) == true, "\(error)")
        #expect(Set(error.problems).count == error.problems.count, "each problem is reported once: \(error)")
        for problem in error.problems {
            #expect(problem.location.file == path)
            #expect(
                problem.description.hasPrefix("\(path):\(problem.location.line):\(problem.location.column): error: "))
        }
    }

    @Test func aTenMegabyteFileIsRefusedBeforeParsing() throws {
        let folder = try BadConfigFiles.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = try BadConfigFiles.writeTenMegabytes(in: folder)
        let error = try #require(throws: ConfigError.self) { try loader.load(path: path) }
        #expect(error.problems.count == 1)
        #expect(error.description.hasPrefix("\(path):1:1: error: the file is 10485"))
        #expect(error.description.contains("more than the 8388608-byte limit"))
    }

    @Test func anAliasBombIsRefusedWithoutExpandingIt() throws {
        let folder = try BadConfigFiles.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = try BadConfigFiles.writeAliasBomb(in: folder)
        let started = ContinuousClock.now
        let error = try #require(throws: ConfigError.self) { try loader.load(path: path) }
        #expect(ContinuousClock.now - started < .seconds(10))
        let problem = try #require(error.problems.first)
        #expect(problem.message.contains("expands to more than 1000000 nodes"))
        #expect(problem.location.line >= 1 && problem.location.column >= 1)
    }
}

/// The broken configs too big to keep in the repository, written on demand.
enum BadConfigFiles {
    static func folder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("feedwork-bad-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// A valid-looking feeds.yaml padded with comments to 10 MB.
    static func writeTenMegabytes(in folder: URL) throws -> String {
        var text = "feeds:\n  - { name: fruit, adapter: fruit, url: data.json }\n"
        let comment = "# " + String(repeating: "padding ", count: 12) + "\n"
        text += String(repeating: comment, count: 10 * 1024 * 1024 / comment.utf8.count + 1)
        let url = folder.appendingPathComponent("feeds.yaml")
        try Data(text.utf8).write(to: url)
        return url.path
    }

    /// Nine levels of ten aliases each: a billion strings once expanded.
    static func writeAliasBomb(in folder: URL) throws -> String {
        let names = ["a", "b", "c", "d", "e", "f", "g", "h", "i"]
        var lines = ["a: &a [\"lol\", \"lol\", \"lol\", \"lol\", \"lol\", \"lol\", \"lol\", \"lol\", \"lol\", \"lol\"]"]
        for (previous, name) in zip(names, names.dropFirst()) {
            lines.append(
                "\(name): &\(name) [" + Array(repeating: "*\(previous)", count: 10).joined(separator: ", ") + "]")
        }
        lines.append("feeds:\n  - { name: fruit, adapter: fruit, url: data.json, extra: *i }")
        let url = folder.appendingPathComponent("feeds.yaml")
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: url)
        return url.path
    }
}

import FeedTestSupport
import Foundation
import Testing

@Suite("feedwork export")
struct ExportCommandTests {
    let directory: URL

    init() throws {
        directory = try FeedworkProcess.makeFolder("export")
    }

    func write(_ name: String, _ text: String) throws {
        try Data(text.utf8).write(to: directory.appendingPathComponent(name))
    }

    func fruit(_ items: [(String, Int)]) -> String {
        let list = items.map { #"{"type":\#(jsonString($0.0)),"price":\#($0.1),"weight":100}"# }
        return #"{"fruit":[\#(list.joined(separator: ","))]}"#
    }

    func jsonString(_ text: String) -> String {
        String(decoding: (try? JSONSerialization.data(withJSONObject: [text])) ?? Data(), as: UTF8.self)
            .dropFirst().dropLast().description
    }

    /// Runs the fruit feed over `items` once.
    func runFruit(_ items: [(String, Int)]) async throws {
        try write("data.json", fruit(items))
        try write("feeds.yaml", "feeds:\n  - { name: fruit, adapter: fruit, url: data.json }\n")
        let result = try await FeedworkProcess.run(["run"], in: directory)
        #expect(result.status == 0, "\(result.stderr)")
    }

    func ndjson(_ text: String) throws -> [[String: Any]] {
        try text.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
    }

    @Test func exportsNDJSONToStandardOutputInTheDeclaredOrder() async throws {
        try await runFruit([("pear", 80), ("apple", 149)])
        let result = try await FeedworkProcess.run(["export", "fruit"], in: directory)
        #expect(result.status == 0, "\(result.stderr)")
        let rows = try ndjson(result.stdout)
        #expect(rows.map { $0["type"] as? String } == ["apple", "pear"])
        #expect(rows.map { $0["price"] as? Int } == [149, 80])
    }

    @Test func orderTakesADescendingFieldAsItsSeparateValue() async throws {
        try await runFruit([("pear", 80), ("apple", 149), ("fig", 80)])
        let result = try await FeedworkProcess.run(
            ["export", "fruit", "--order", "-price,type", "--columns", "type"], in: directory)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try ndjson(result.stdout).map { $0["type"] as? String } == ["apple", "fig", "pear"])
    }

    @Test func whereWithAValueContainingAQuoteSelectsThatRow() async throws {
        try await runFruit([("o'neil \"pear\"", 80), ("apple", 149)])
        let result = try await FeedworkProcess.run(
            ["export", "fruit", "--where", #"type=o'neil "pear""#, "--columns", "type,price"], in: directory)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == #"{"type":"o'neil \"pear\"","price":80}"# + "\n")
    }

    @Test func csvToAFileParsesBackWithPython() async throws {
        try await runFruit([("kiwi, gold", 50), ("apple", 149)])
        let result = try await FeedworkProcess.run(
            ["export", "fruit", "--format", "csv", "--output", "fruit.csv", "--columns", "type,price,_feed"],
            in: directory)
        #expect(result.status == 0, "\(result.stderr)")
        let text = try String(contentsOf: directory.appendingPathComponent("fruit.csv"), encoding: .utf8)
        await #expect(
            try CSVReader.parse(text) == [
                ["type", "price", "_feed"], ["apple", "149", "fruit"], ["kiwi, gold", "50", "fruit"],
            ])
    }

    @Test func changedSinceAfterAPassThatChangedOneRowExportsExactlyThatRow() async throws {
        try await runFruit([("apple", 149), ("pear", 80), ("plum", 30)])
        try write("data.json", fruit([("apple", 149), ("pear", 95), ("plum", 30)]))
        let second = try await FeedworkProcess.run(["run", "--json"], in: directory)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(second.stdout.utf8)) as? [String: Any])
        let run = try #require(((report["feeds"] as? [[String: Any]])?.first?["run"] as? Int))
        let result = try await FeedworkProcess.run(
            ["export", "fruit", "--changed-since", String(run - 1)], in: directory)
        #expect(result.status == 0, "\(result.stderr)")
        let rows = try ndjson(result.stdout)
        #expect(rows.count == 1)
        #expect(rows.first?["type"] as? String == "pear")
        #expect(rows.first?["price"] as? Int == 95)
    }

    @Test func anUnknownEntityExitsTwoListingTheEntities() async throws {
        try await runFruit([("apple", 149)])
        let result = try await FeedworkProcess.run(["export", "frut"], in: directory)
        #expect(result.status == 2)
        #expect(result.stderr.contains("no entity 'frut' in the store; entities: fruit"))
    }

    @Test func anUnknownFieldExitsTwoAndLeavesNoFile() async throws {
        try await runFruit([("apple", 149)])
        let result = try await FeedworkProcess.run(
            ["export", "fruit", "--where", "colour=red", "--output", "out.json", "--format", "json"], in: directory)
        #expect(result.status == 2)
        #expect(result.stderr.contains("'fruit' has no field 'colour'; fields: type, price, currency, weight"))
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(!files.contains { $0.hasPrefix("out.json") }, "\(files)")
    }

    @Test func allWritesOneFilePerEntityAndAManifest() async throws {
        try await runFruit([("apple", 149)])
        let result = try await FeedworkProcess.run(
            ["export", "--all", "--output-dir", "out", "--format", "json"], in: directory)
        #expect(result.status == 0, "\(result.stderr)")
        let out = directory.appendingPathComponent("out")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: out.path).sorted() == ["fruit.json", "manifest.json"])
        let rows = try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("fruit.json")))
        #expect((rows as? [[String: Any]])?.count == 1)
    }

    @Test func optionsThatNeedOneEntityAreUsageErrorsWithAll() async throws {
        let result = try await FeedworkProcess.run(
            ["export", "--all", "--output-dir", "out", "--where", "a=b"], in: directory)
        #expect(result.status == 2)
        #expect(result.stderr.contains("--where applies to one entity"))
    }

    @Test func helpPrintsHelpOnlyAndSucceeds() async throws {
        let result = try await FeedworkProcess.run(["export", "--help"], in: directory)
        #expect(result.status == 0)
        #expect(result.stdout.contains("USAGE: feedwork export"))
        #expect(!result.stderr.contains("error"), "\(result.stderr)")
    }

    @Test func aMissingStoreIsAnErrorAndCreatesNothing() async throws {
        try write("feeds.yaml", "feeds:\n  - { name: fruit, adapter: fruit, url: data.json }\n")
        let result = try await FeedworkProcess.run(["export", "fruit"], in: directory)
        #expect(result.status == 1)
        #expect(result.stderr.contains("no store at"))
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("feeds.sqlite").path))
    }

    @Test func csvFormulasNeutralizedPrefixesCellsASpreadsheetWouldRun() async throws {
        // The fruit adapter stores each type lowercased and trimmed.
        try await runFruit([
            ("=hyperlink(\"http://127.0.0.1/x\",\"pay\")", 1), ("+1", 2), ("-x", 3), ("@sum(a1)", 4), ("pear", 5),
        ])
        let arguments = ["export", "fruit", "--format", "csv", "--columns", "type,price", "--order", "price"]
        let neutralized = try await FeedworkProcess.run(arguments + ["--csv-formulas", "neutralized"], in: directory)
        #expect(neutralized.status == 0, "\(neutralized.stderr)")
        #expect(
            neutralized.stdout.components(separatedBy: "\r\n") == [
                "type,price", #""'=hyperlink(""http://127.0.0.1/x"",""pay"")",1"#, "'+1,2", "'-x,3", "'@sum(a1),4",
                "pear,5", "",
            ])
        let verbatim = try await FeedworkProcess.run(arguments, in: directory)
        #expect(verbatim.stdout.contains("\r\n+1,2\r\n"), "\(verbatim.stdout)")
    }

    @Test func csvFormulasWithAnotherFormatIsAUsageError() async throws {
        try await runFruit([("pear", 80)])
        let result = try await FeedworkProcess.run(["export", "fruit", "--csv-formulas", "neutralized"], in: directory)
        #expect(result.status == 2)
        #expect(result.stderr.contains("--csv-formulas applies to --format csv"), "\(result.stderr)")
    }
}

/// Python's csv module as an independent RFC 4180 reader.
enum CSVReader {
    static func parse(_ text: String) async throws -> [[String]] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "python3", "-c",
            "import csv,io,json,sys; json.dump(list(csv.reader(io.TextIOWrapper(sys.stdin.buffer, encoding='utf-8', newline=''), strict=True)), sys.stdout)",
        ]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.spawn()
        input.fileHandleForWriting.write(Data(text.utf8))
        try input.fileHandleForWriting.close()
        let data = await OwnThread.run { output.fileHandleForReading.readAllRetryingInterrupts() }
        await process.exited()
        return try JSONSerialization.jsonObject(with: data) as? [[String]] ?? []
    }
}

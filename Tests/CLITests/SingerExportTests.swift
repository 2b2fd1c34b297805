import FeedTestSupport
import Foundation
import Testing

/// `feedwork export --format singer`: Singer messages any Singer target reads, ending with a
/// state that `--changed-since` takes back.
@Suite("feedwork export --format singer")
struct SingerExportTests {
    let directory: URL

    init() throws {
        directory = try FeedworkProcess.makeFolder("singer-export")
    }

    /// Runs a fruit feed over `items` (type and price) once.
    func runFruit(_ items: [(String, Int)]) async throws {
        let list = items.map { #"{"type":"\#($0.0)","price":\#($0.1),"weight":100}"# }
        try Data(#"{"fruit":[\#(list.joined(separator: ","))]}"#.utf8)
            .write(to: directory.appendingPathComponent("data.json"))
        try Data("feeds:\n  - { name: fruit, adapter: fruit, url: data.json }\n".utf8)
            .write(to: directory.appendingPathComponent("feeds.yaml"))
        let result = try await FeedworkProcess.run(["run"], in: directory)
        #expect(result.status == 0, "\(result.stderr)")
    }

    func export(_ arguments: [String]) async throws -> [[String: Any]] {
        let result = try await FeedworkProcess.run(["export", "--format", "singer"] + arguments, in: directory)
        #expect(result.status == 0, "\(result.stderr)")
        let messages = try SingerRules.check(result.stdout)
        return messages
    }

    @Test func anEntityIsASchemaItsRecordsAndAState() async throws {
        try await runFruit([("pear", 80), ("apple", 149)])
        let messages = try await export(["fruit"])
        #expect(messages.map { $0["type"] as? String } == ["SCHEMA", "RECORD", "RECORD", "STATE"])
        #expect(messages[0]["key_properties"] as? [String] == ["type"])
        let properties = (messages[0]["schema"] as? [String: Any])?["properties"] as? [String: [String: Any]]
        #expect(properties?["price"]?["type"] as? [String] == ["integer", "null"])
        #expect(messages.dropFirst().first.flatMap { $0["record"] as? [String: Any] }?["type"] as? String == "apple")
        #expect((messages.last?["value"] as? [String: Any])?["feedwork_run"] as? Int == 1)
    }

    @Test func theStateATargetPrintsFeedsTheNextExportOnlyWhatChanged() async throws {
        try await runFruit([("pear", 80), ("apple", 149)])
        let first = try await export(["fruit"])
        let state = try #require(first.last?["value"] as? [String: Any])
        try JSONSerialization.data(withJSONObject: state).write(to: directory.appendingPathComponent("state.json"))
        try await runFruit([("pear", 85), ("apple", 149)])
        let next = try await export(["fruit", "--changed-since", "state.json"])
        #expect(next.compactMap { ($0["record"] as? [String: Any])?["type"] as? String } == ["pear"])
        #expect((next.last?["value"] as? [String: Any])?["feedwork_run"] as? Int == 2)
        let inline = try await export(["fruit", "--changed-since", #"{"feedwork_run": 2}"#])
        #expect(inline.map { $0["type"] as? String } == ["SCHEMA", "STATE"])
    }

    @Test func allTablesMakeOneStreamWithOneState() async throws {
        try await runFruit([("pear", 80)])
        let messages = try await export(["--all"])
        #expect(messages.filter { $0["type"] as? String == "STATE" }.count == 1)
        #expect(messages.last?["type"] as? String == "STATE")
        #expect(Set(messages.compactMap { $0["stream"] as? String }) == ["fruit"])
    }

    @Test func deletedRowsAndAnOutputFolderAreUsageErrors() async throws {
        try await runFruit([("pear", 80)])
        let deleted = try await FeedworkProcess.run(
            ["export", "fruit", "--format", "singer", "--changed-since", "0", "--include-deleted"], in: directory)
        #expect(deleted.status == 2)
        #expect(deleted.stderr.contains("Singer has no message for a deleted row"), "\(deleted.stderr)")
        let folder = try await FeedworkProcess.run(
            ["export", "--all", "--format", "singer", "--output-dir", "out"], in: directory)
        #expect(folder.status == 2)
    }

    @Test func aStateWithoutARunIdIsAUsageError() async throws {
        try await runFruit([("pear", 80)])
        let result = try await FeedworkProcess.run(
            ["export", "fruit", "--format", "singer", "--changed-since", #"{"bookmarks": {}}"#], in: directory)
        #expect(result.status == 2)
        #expect(result.stderr.contains("holds no feedwork_run"), "\(result.stderr)")
    }

    /// target-jsonl, a Singer target from PyPI: `.ci/run` installs it in a virtual environment
    /// and names it in `FEEDWORK_TARGET_JSONL`.
    @Test func aSingerTargetFromPyPIWritesTheRows() async throws {
        guard let target = ProcessInfo.processInfo.environment["FEEDWORK_TARGET_JSONL"] else {
            let message =
                "FEEDWORK_TARGET_JSONL is not set: install target-jsonl (python3 -m venv v && v/bin/pip install target-jsonl) and set it to v/bin/target-jsonl"
            if ProcessInfo.processInfo.environment["CI"] != nil { Issue.record(Comment(rawValue: message)) }
            print("skipped: \(message)")
            return
        }
        try await runFruit([("pear", 80), ("apple", 149)])
        let export = try await FeedworkProcess.run(["export", "fruit", "--format", "singer"], in: directory)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: target)
        process.currentDirectoryURL = directory
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.spawn()
        input.fileHandleForWriting.write(Data(export.stdout.utf8))
        try input.fileHandleForWriting.close()
        let printed = String(
            decoding: await OwnThread.run { output.fileHandleForReading.readAllRetryingInterrupts() }, as: UTF8.self)
        await process.exited()
        #expect(process.terminationStatus == 0)
        #expect(printed.contains(#""feedwork_run": 1"#), "the target passes the state on: \(printed)")
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter {
            $0.hasPrefix("fruit") && $0.hasSuffix(".jsonl")
        }
        let file = try #require(files.first, "target-jsonl wrote no fruit-*.jsonl")
        let rows = try String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8)
            .split(separator: "\n").map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(rows.map { $0?["type"] as? String } == ["apple", "pear"])
        #expect(rows.map { $0?["price"] as? Int } == [149, 80])
    }
}

/// The Singer specification's rules for a stream of messages, checked line by line.
enum SingerRules {
    struct Violation: Error, CustomStringConvertible {
        var line: Int
        var message: String
        var description: String { "line \(line): \(message)" }
    }

    /// The messages of `text`, after checking that every line is a JSON object with a known
    /// `type`, every RECORD follows its stream's SCHEMA and has only the schema's properties with
    /// values of their JSON Schema types, and key properties are properties.
    static func check(_ text: String) throws -> [[String: Any]] {
        var schemas: [String: [String: [String: Any]]] = [:]
        var messages: [[String: Any]] = []
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
        where !line.isEmpty {
            let number = index + 1
            guard let message = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
                throw Violation(line: number, message: "not a JSON object")
            }
            switch message["type"] as? String {
            case "SCHEMA":
                guard let stream = message["stream"] as? String,
                    let schema = message["schema"] as? [String: Any],
                    let properties = schema["properties"] as? [String: [String: Any]],
                    let keys = message["key_properties"] as? [String]
                else { throw Violation(line: number, message: "SCHEMA needs stream, schema and key_properties") }
                guard keys.allSatisfy({ properties[$0] != nil }) else {
                    throw Violation(line: number, message: "a key property is not a property")
                }
                schemas[stream] = properties
            case "RECORD":
                guard let stream = message["stream"] as? String, let record = message["record"] as? [String: Any]
                else { throw Violation(line: number, message: "RECORD needs stream and record") }
                guard let properties = schemas[stream] else {
                    throw Violation(line: number, message: "RECORD of '\(stream)' before its SCHEMA")
                }
                for (name, value) in record {
                    guard let property = properties[name] else {
                        throw Violation(line: number, message: "'\(name)' is not in the schema")
                    }
                    guard matches(value, property) else {
                        throw Violation(line: number, message: "'\(name)' does not match \(property)")
                    }
                }
            case "STATE":
                guard message["value"] != nil else { throw Violation(line: number, message: "STATE needs value") }
            default:
                throw Violation(line: number, message: "unknown type \(message["type"] ?? "none")")
            }
            messages.append(message)
        }
        return messages
    }

    static func matches(_ value: Any, _ property: [String: Any]) -> Bool {
        guard let types = property["type"] as? [String] else { return true }
        if value is NSNull { return types.contains("null") }
        if let number = value as? NSNumber {
            // JSONSerialization reads true and false as numbers too.
            let integral = number.doubleValue.rounded() == number.doubleValue
            return types.contains("number") || (types.contains("integer") && integral)
                || (types.contains("boolean") && integral && (0...1).contains(number.intValue))
        }
        if value is String { return types.contains("string") }
        return types.contains("object") || types.contains("array")
    }
}

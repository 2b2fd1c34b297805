import FeedTestSupport
import Foundation

/// An independent RFC 4180 reader: Python's `csv` module, run as a process.
enum PythonCSV {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// The records of `text` as parsed by `csv.reader` (header included).
    static func parse(_ text: String) throws -> [[String]] {
        let script = """
            import csv, io, json, sys
            reader = csv.reader(io.TextIOWrapper(sys.stdin.buffer, encoding="utf-8", newline=""), strict=True)
            json.dump(list(reader), sys.stdout)
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script]
        let input = Pipe()
        let output = Pipe()
        let errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.spawn()
        // Test inputs are small: written whole before reading (a pipe holds 64 KiB).
        input.fileHandleForWriting.write(Data(text.utf8))
        try input.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readAllRetryingInterrupts()
        let message = errors.fileHandleForReading.readAllRetryingInterrupts()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(description: "python csv failed: " + String(decoding: message, as: UTF8.self))
        }
        guard let rows = try JSONSerialization.jsonObject(with: data) as? [[String]] else {
            throw Failure(description: "python csv printed no rows")
        }
        return rows
    }
}

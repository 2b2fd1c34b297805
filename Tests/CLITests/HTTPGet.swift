import FeedTestSupport
import Foundation

/// GET requests with `curl`, a client of its own process, for tests of servers Feedwork runs.
enum HTTPGet {
    /// The status and body (as sent) of a GET of `url` with `headers` (`Name: value`), or
    /// status 0 when nothing answered within `seconds`.
    static func get(_ url: String, headers: [String] = [], seconds: Int = 10) async throws -> (
        status: Int, body: String
    ) {
        try await OwnThread.run { try blockingGet(url, headers: headers, seconds: seconds) }
    }

    private static func blockingGet(_ url: String, headers: [String], seconds: Int) throws -> (
        status: Int, body: String
    ) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        process.arguments =
            ["-s", "--max-time", String(seconds), "-w", "\n%{http_code}"] + headers.flatMap { ["-H", $0] } + [url]
        let output = Pipe()
        process.standardOutput = output
        try process.spawn()
        let text = String(decoding: output.fileHandleForReading.readAllRetryingInterrupts(), as: UTF8.self)
        process.waitUntilExit()
        // The body, then the line `-w` adds with the status.
        guard let newline = text.lastIndex(of: "\n") else { return (0, text) }
        return (Int(text[text.index(after: newline)...]) ?? 0, String(text[..<newline]))
    }

    /// Polls `url` every 100 ms for up to 60 s until it answers 200; the last answer.
    static func waitForOK(_ url: String) async throws -> (status: Int, body: String) {
        let deadline = Date().addingTimeInterval(60)
        var answer = try await get(url)
        while answer.status != 200, Date() < deadline {
            try await Task.sleep(for: .milliseconds(100))
            answer = try await get(url)
        }
        return answer
    }
}

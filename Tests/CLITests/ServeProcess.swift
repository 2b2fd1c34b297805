import FeedTestSupport
import Foundation

/// `feedwork serve` started by a test.
enum ServeProcess {
    struct NotListening: Error, CustomStringConvertible {
        var said: String
        var description: String { "feedwork serve did not say where it listens: \(said)" }
    }

    /// The port `serve` (started with `--port 0`) says it listens on, read from its stderr.
    static func port(of serve: FeedworkProcess.Running) throws -> Int {
        let said = String(
            decoding: serve.err.fileHandleForReading.readRetryingInterrupts { $0.contains(Data("/\n".utf8)) },
            as: UTF8.self)
        guard let range = said.range(of: #":[0-9]+/\n"#, options: .regularExpression),
            let port = Int(said[range].dropFirst().dropLast(2))
        else { throw NotListening(said: said) }
        return port
    }
}

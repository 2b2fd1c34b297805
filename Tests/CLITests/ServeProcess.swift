import FeedTestSupport
import Foundation
import Testing

/// `feedwork serve` started by a test.
enum ServeProcess {
    struct NotListening: Error, CustomStringConvertible {
        var said: String
        var description: String { "feedwork serve did not say where it listens: \(said)" }
    }

    /// The port `serve` (started with `--port 0`) says it listens on, read from its stderr.
    static func port(of serve: FeedworkProcess.Running) async throws -> Int {
        let err = serve.err
        let said = await OwnThread.run {
            String(
                decoding: err.fileHandleForReading.readRetryingInterrupts { $0.contains(Data("/\n".utf8)) },
                as: UTF8.self)
        }
        guard let range = said.range(of: #":[0-9]+/\n"#, options: .regularExpression),
            let port = Int(said[range].dropFirst().dropLast(2))
        else { throw NotListening(said: said) }
        return port
    }

    /// A new folder (its name starting with `prefix`) whose `feeds.yaml` has one json feed,
    /// `items`, of two `item` rows read from `items.json` beside it, run once: a small store
    /// for `serve` to serve.
    static func itemsStore(_ prefix: String) async throws -> URL {
        let directory = try FeedworkProcess.makeFolder(prefix)
        try Data(#"{"items":[{"id":1,"name":"one"},{"id":2,"name":"two"}]}"#.utf8)
            .write(to: directory.appendingPathComponent("items.json"))
        try Data(
            """
            feeds:
              - { name: items, adapter: json, url: items.json, records: items, entity: item, key: id,
                  fields: { id: int, name: string } }
            """.utf8
        ).write(to: directory.appendingPathComponent("feeds.yaml"))
        let run = try await FeedworkProcess.run(["run"], in: directory)
        try #require(run.status == 0, "\(run.stderr)")
        return directory
    }
}

import FeedKit
import FeedStore
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Passes that `feedwork run` asks of the `feedwork worker` holding a SQLite store, which runs
/// them at once beside its scheduled ones and answers with their report.
///
/// A SQLite store has one writing process, and while a worker runs that is the worker. The
/// requests are files in a folder beside the store (`<store>-requests`): `ID.request`, which
/// the worker takes by renaming it to `ID.taken`, then answers with `ID.answer` (written whole
/// or not at all). A worker that stops before answering leaves the requester to run the feeds
/// itself once the store is free.
public struct RunRequest: Codable, Sendable, Equatable {
    public var id: String
    /// The feeds to run, in the order of their report.
    public var feeds: [String]
    public var offline: Bool
    public var fullRefresh: Bool

    public init(feeds: [String], offline: Bool = false, fullRefresh: Bool = false) {
        id = UUID().uuidString
        self.feeds = feeds
        self.offline = offline
        self.fullRefresh = fullRefresh
    }
}

/// A worker's answer to a ``RunRequest``: the report of its passes, or why it ran none.
public struct RunAnswer: Codable, Sendable {
    public var report: RunReport?
    public var refused: String?
}

/// The request folder of a store, for both sides (see ``RunRequest``).
public enum RunRequests {
    /// How often a requester looks for its answer and for the worker still holding the store.
    static let poll = Duration.milliseconds(100)

    static func folder(forStore storePath: String) -> URL {
        URL(fileURLWithPath: StoreSidecar.resolved(storePath) + "-requests")
    }

    static func file(_ id: String, _ suffix: String, forStore storePath: String) -> String {
        folder(forStore: storePath).appendingPathComponent("\(id).\(suffix)").path
    }

    // MARK: - The requester: `feedwork run`

    /// Asks the worker holding the store at `storePath` to run `request`'s feeds, and waits for
    /// its answer; nil when no worker holds the store (any more) and none answered, so the
    /// caller runs the feeds itself. Cancelling withdraws the request (a worker that took it
    /// already runs it to the end).
    ///
    /// Only for a process that has not opened the store (it looks at the store's lock, see
    /// ``StoreHolder/current(forStore:)``).
    public static func handOff(_ request: RunRequest, storePath: String) async throws -> RunAnswer? {
        let folder = folder(forStore: storePath)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let data = try JSONEncoder().encode(request)
        try AtomicFile.write(data, to: file(request.id, "request", forStore: storePath))
        defer {
            for suffix in ["request", "answer"] { unlink(file(request.id, suffix, forStore: storePath)) }
            rmdir(folder.path)  // when no other request is in it
        }
        while true {
            if let answer = answer(request.id, storePath: storePath) { return answer }
            if StoreHolder.current(forStore: storePath)?.kind != .worker {
                // The worker stopped: it may have answered just before.
                return answer(request.id, storePath: storePath)
            }
            try await Task.sleep(for: poll)
        }
    }

    private static func answer(_ id: String, storePath: String) -> RunAnswer? {
        FileManager.default.contents(atPath: file(id, "answer", forStore: storePath))
            .flatMap { try? JSONDecoder().decode(RunAnswer.self, from: $0) }
    }

    // MARK: - The worker

    /// The requests waiting for the store at `storePath`, each now taken by this process.
    static func take(forStore storePath: String) -> [RunRequest] {
        let folder = folder(forStore: storePath)
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return [] }
        var taken: [RunRequest] = []
        for name in names.sorted() where name.hasSuffix(".request") {
            let id = String(name.dropLast(".request".count))
            let takenPath = file(id, "taken", forStore: storePath)
            // The rename is the claim: of two takers one succeeds, and a withdrawn request is gone.
            guard rename(file(id, "request", forStore: storePath), takenPath) == 0 else { continue }
            defer { unlink(takenPath) }
            guard let data = FileManager.default.contents(atPath: takenPath),
                let request = try? JSONDecoder().decode(RunRequest.self, from: data), request.id == id
            else { continue }
            taken.append(request)
        }
        return taken
    }

    /// Answers the request `id`.
    static func answer(_ id: String, _ answer: RunAnswer, forStore storePath: String) {
        guard let data = try? JSONEncoder().encode(answer) else { return }
        try? AtomicFile.write(data, to: file(id, "answer", forStore: storePath))
    }
}

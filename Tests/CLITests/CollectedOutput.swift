import Foundation
import Synchronization
import Testing

/// What a running process writes to a pipe, read as it comes (on a thread of its own until the
/// pipe ends), for tests that wait for a line before acting on the process.
final class CollectedOutput: Sendable {
    let text = Mutex("")

    init(_ pipe: Pipe) {
        let handle = pipe.fileHandleForReading
        Thread.detachNewThread { [self] in
            while case let data = handle.availableData, !data.isEmpty {
                text.withLock { $0 += String(decoding: data, as: UTF8.self) }
            }
        }
    }

    /// Waits (up to 60 s) until the text holds `part`.
    func wait(for part: String) async throws {
        let deadline = Date().addingTimeInterval(60)
        while !text.withLock({ $0.contains(part) }) {
            try #require(Date() < deadline, "never written: \(part)\n\(text.withLock { $0 })")
            try await Task.sleep(for: .milliseconds(50))
        }
    }
}

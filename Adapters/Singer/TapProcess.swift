import FeedKit
import Foundation
import Synchronization

/// A Singer tap running as a child process: its standard output as lines (``lines``), its
/// standard error handed to a callback line by line, and its end.
///
/// Standard input is `/dev/null`. ``stop(_:)`` ends the tap: `SIGTERM`, then `SIGKILL` after
/// a grace period. The child is always waited for (``exit()``), so none is left a zombie.
final class TapProcess: Sendable {
    /// Why Feedwork stopped the tap, when it did.
    enum StopReason: Sendable, Equatable {
        case timedOut, cancelled, failed
    }

    /// How the tap ended.
    enum Termination: Sendable, Equatable {
        case exited(Int32)
        case signal(Int32)
    }

    /// Standard output, line by line; call ``TapLineReader/consumed()`` on it for each line taken.
    let output: TapLineReader
    /// The child's process id.
    let pid: Int32
    /// Kept so the `Process` lives as long as the tap.
    private let process: Process
    private let shared = Shared()
    private let grace: Duration

    /// What the tap's threads and its users share.
    private final class Shared: Sendable {
        let state = Mutex(State())
        let errorLines: Mutex<[String]> = Mutex([])
        /// Whether standard error reached its end.
        let errorsRead = Atomic(false)
    }

    private struct State {
        var stopReason: StopReason?
        var termination: Termination?
        var waiters: [CheckedContinuation<Termination, Never>] = []
    }

    /// How many of the last lines of standard error are kept for messages.
    static let keptErrorLines = 10
    /// The longest standard error line passed on; longer ones are cut.
    static let maximumErrorLine = 4096

    /// Starts `executable` with `arguments` in `directory`.
    ///
    /// - Parameters:
    ///   - stderr: called on a thread of the tap's with each line of its standard error.
    ///   - grace: how long a stopped tap has between `SIGTERM` and `SIGKILL`.
    /// - Throws: ``SingerError/Reason/launchFailed(_:)`` when the process cannot be started.
    init(
        executable: URL, arguments: [String], directory: URL, grace: Duration = .seconds(3),
        stderr: @escaping @Sendable (String) -> Void
    ) throws(SingerError.Reason) {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = directory
        process.standardInput = FileHandle.nullDevice
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        self.grace = grace
        self.process = process
        let shared = self.shared
        process.terminationHandler = { process in
            let termination: Termination =
                process.terminationReason == .uncaughtSignal
                ? .signal(process.terminationStatus) : .exited(process.terminationStatus)
            let waiters = shared.state.withLock { state in
                state.termination = termination
                defer { state.waiters = [] }
                return state.waiters
            }
            for waiter in waiters { waiter.resume(returning: termination) }
        }
        do {
            // One launch at a time in this program: see `Process.runSerialized()`.
            try process.runSerialized()
        } catch {
            throw .launchFailed("\(executable.path): \(error.localizedDescription)")
        }
        // The child has its own copies of the write ends; without closing ours, reads never end.
        try? out.fileHandleForWriting.close()
        try? err.fileHandleForWriting.close()
        pid = process.processIdentifier
        output = TapLineReader(out.fileHandleForReading, label: "feedwork.tap.stdout")
        Self.readErrors(err.fileHandleForReading) { line in
            shared.errorLines.withLock { lines in
                lines.append(line)
                if lines.count > Self.keptErrorLines { lines.removeFirst(lines.count - Self.keptErrorLines) }
            }
            stderr(line)
        } done: {
            shared.errorsRead.store(true, ordering: .sequentiallyConsistent)
        }
    }

    /// The last lines the tap wrote to standard error, at most ``keptErrorLines``.
    var lastErrorLines: [String] { shared.errorLines.withLock { $0 } }

    /// Why Feedwork stopped the tap, or `nil` when it did not.
    var stopReason: StopReason? { shared.state.withLock { $0.stopReason } }

    /// Ends the tap unless it has ended: `SIGTERM` now, `SIGKILL` after the grace period if it is
    /// still running. The first reason given is kept.
    func stop(_ reason: StopReason) {
        let running = shared.state.withLock { state in
            if state.stopReason == nil { state.stopReason = reason }
            return state.termination == nil
        }
        guard running else { return }
        signal(SIGTERM)
        let grace = self.grace
        Task.detached { [self] in
            try? await Task.sleep(for: grace)
            signal(SIGKILL)
            // A process the tap started may still hold its output open: stop waiting for it.
            try? await Task.sleep(for: .seconds(1))
            output.abandon()
        }
    }

    /// Sends `signal` while the child has not been waited for (its pid cannot be reused before).
    private func signal(_ signal: Int32) {
        shared.state.withLock { state in
            if state.termination == nil { _ = kill(pid, signal) }
        }
    }

    /// Waits for the tap to end, and for the last of its standard error (a second at most, as a
    /// process the tap started may hold it open); how it ended.
    func exit() async -> Termination {
        let termination = await terminated()
        for _ in 0..<50 where !shared.errorsRead.load(ordering: .sequentiallyConsistent) {
            try? await Task.sleep(for: .milliseconds(20))
        }
        return termination
    }

    private func terminated() async -> Termination {
        await withCheckedContinuation { (continuation: CheckedContinuation<Termination, Never>) in
            let ended = shared.state.withLock { state -> Termination? in
                if let termination = state.termination { return termination }
                state.waiters.append(continuation)
                return nil
            }
            if let ended { continuation.resume(returning: ended) }
        }
    }

    /// Reads `handle` line by line on a thread of its own until its end, then closes it.
    private static func readErrors(
        _ handle: FileHandle, _ body: @escaping @Sendable (String) -> Void, done: @escaping @Sendable () -> Void
    ) {
        let thread = Thread {
            var pending = Data()
            func emit(_ bytes: Data) {
                var text = String(decoding: bytes.prefix(maximumErrorLine), as: UTF8.self)
                if text.hasSuffix("\r") { text.removeLast() }
                if !text.isEmpty { body(text) }
            }
            var buffer = [UInt8](repeating: 0, count: 16 << 10)
            while true {
                // read(2), retried when a signal interrupts it: Foundation's `availableData`
                // stops the process on EINTR.
                let count = buffer.withUnsafeMutableBytes {
                    Foundation.read(handle.fileDescriptor, $0.baseAddress, $0.count)
                }
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { break }
                pending.append(contentsOf: buffer[0..<count])
                while let newline = pending.firstIndex(of: 0x0A) {
                    emit(pending[pending.startIndex..<newline])
                    pending.removeSubrange(pending.startIndex...newline)
                }
                if pending.count > maximumErrorLine {
                    emit(pending)
                    pending.removeAll()
                }
            }
            emit(pending)
            try? handle.close()
            done()
        }
        thread.name = "feedwork.tap.stderr"
        thread.start()
    }
}

import FeedKit
import Foundation
import Synchronization

/// A Singer tap running as a child process: its standard output as lines (``lines``), its
/// standard error handed to a callback line by line, and its end.
///
/// Standard input is `/dev/null`. The tap leads a process group of its own (Foundation's
/// `Process` starts each child so), and every signal goes to the whole group and to every
/// process that carries the tap's ``TapMarker`` (those that left the group or its session):
/// ``stop(_:)`` ends the tap and the processes it started, `SIGTERM` then `SIGKILL` after a
/// grace period, and processes the tap leaves behind when it exits are stopped the same way,
/// since one of them may hold its standard output open; ``exit()`` returns once they are gone
/// (or a second past the grace period). The tap's exit is noticed as it happens, whatever its
/// children hold open, and the child is always reaped (by `Process`, once the last process
/// holding its pipes ends).
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
    /// What finds the processes the tap started outside its group.
    private let marker: TapMarker

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
        /// How the tap had ended when Feedwork stopped it: it had exited, but its output was
        /// still open.
        var terminationBeforeStop: Termination?
        /// Whether the processes the tap left in its group when it exited were signalled.
        var leftoversStopped = false
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
        let marker = TapMarker()
        process.environment = marker.environment
        self.marker = marker
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
            Self.ended(termination, pid: process.processIdentifier, marker: marker, shared: shared, grace: grace)
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
        Self.awaitExit(pid, marker: marker, shared: shared, grace: grace)
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

    /// Notes that the tap ended (the first word on it is kept), wakes the waiters, and stops
    /// the processes the tap left, in its group or carrying its marker, unless a stop already
    /// signals them.
    private static func ended(
        _ termination: Termination, pid: Int32, marker: TapMarker, shared: Shared, grace: Duration
    ) {
        let marked = marker.processes()
        let (waiters, leftovers) = shared.state.withLock { state -> ([CheckedContinuation<Termination, Never>], Bool) in
            guard state.termination == nil else { return ([], false) }
            state.termination = termination
            defer { state.waiters = [] }
            let leftovers = state.stopReason == nil && (kill(-pid, 0) == 0 || !marked.isEmpty)
            state.leftoversStopped = leftovers
            return (state.waiters, leftovers)
        }
        if leftovers { stopLeftovers(pid, marker: marker, grace: grace) }
        for waiter in waiters { waiter.resume(returning: termination) }
    }

    /// Waits on a thread of its own for the tap to exit, without reaping it (`WNOWAIT`), and
    /// reports it at once: Foundation's `Process` calls its termination handler only when every
    /// process holding the tap's pipes has ended, so a child the tap left running would hide its
    /// exit. `Process` still reaps it; until then the zombie keeps its pid (and its group's id)
    /// from being reused, so signalling the group stays safe.
    private static func awaitExit(_ pid: Int32, marker: TapMarker, shared: Shared, grace: Duration) {
        let thread = Thread {
            var info = siginfo_t()
            var result: Int32
            repeat { result = waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) } while result < 0 && errno == EINTR
            // `Process` reaped it first (ECHILD): its termination handler reports the exit.
            guard result == 0 else { return }
            let status = info._sifields._sigchld.si_status
            let termination: Termination = Int(info.si_code) == CLD_EXITED ? .exited(status) : .signal(status)
            ended(termination, pid: pid, marker: marker, shared: shared, grace: grace)
        }
        thread.name = "feedwork.tap.wait"
        thread.start()
    }

    /// The last lines the tap wrote to standard error, at most ``keptErrorLines``.
    var lastErrorLines: [String] { shared.errorLines.withLock { $0 } }

    /// Why Feedwork stopped the tap, or `nil` when it did not.
    var stopReason: StopReason? { shared.state.withLock { $0.stopReason } }

    /// How the tap had ended by itself before Feedwork stopped it, when it had: a process it
    /// started still held its output open.
    var terminationBeforeStop: Termination? { shared.state.withLock { $0.terminationBeforeStop } }

    /// Whether the tap exited leaving processes of its group running, which were then stopped.
    var stoppedLeftovers: Bool { shared.state.withLock { $0.leftoversStopped } }

    /// Ends the tap and every process of its group: `SIGTERM` now, `SIGKILL` after the grace
    /// period, then stops waiting for its output a second later (a process that left the group
    /// may still hold it open). The first reason given is kept; a second call does nothing.
    func stop(_ reason: StopReason) {
        let first = shared.state.withLock { state in
            guard state.stopReason == nil else { return false }
            state.stopReason = reason
            state.terminationBeforeStop = state.termination
            return true
        }
        guard first else { return }
        signal(SIGTERM)
        let grace = self.grace
        Task.detached { [self] in
            try? await Task.sleep(for: grace)
            signal(SIGKILL)
            try? await Task.sleep(for: .seconds(1))
            output.abandon()
        }
    }

    /// Sends `signal` to the tap's process group, to the tap while it has not been waited
    /// for (its pid cannot be reused before; the group's id stays taken while any process is in
    /// the group), and to every process carrying the tap's marker.
    private func signal(_ signal: Int32) {
        let marked = marker.processes()
        shared.state.withLock { state in
            _ = kill(-pid, signal)
            if state.termination == nil { _ = kill(pid, signal) }
        }
        for process in marked { _ = kill(process, signal) }
    }

    /// `SIGTERM` to the process group `group` and the processes carrying `marker` now, `SIGKILL`
    /// after `grace` to those left.
    private static func stopLeftovers(_ group: Int32, marker: TapMarker, grace: Duration) {
        _ = kill(-group, SIGTERM)
        for process in marker.processes() { _ = kill(process, SIGTERM) }
        Task.detached {
            try? await Task.sleep(for: grace)
            if kill(-group, 0) == 0 { _ = kill(-group, SIGKILL) }
            for process in marker.processes() { _ = kill(process, SIGKILL) }
        }
    }

    /// Waits for the tap to end, for the last of its standard error (a second at most, as a
    /// process the tap started may hold it open), and for the processes it started that were
    /// signalled to be gone (the grace period and a second at most); how it ended.
    func exit() async -> Termination {
        let termination = await terminated()
        for _ in 0..<50 where !shared.errorsRead.load(ordering: .sequentiallyConsistent) {
            try? await Task.sleep(for: .milliseconds(20))
        }
        let signalled = shared.state.withLock { $0.stopReason != nil || $0.leftoversStopped }
        if signalled {
            let deadline = ContinuousClock.now + grace + .seconds(1)
            while ContinuousClock.now < deadline, !marker.processes().isEmpty {
                try? await Task.sleep(for: .milliseconds(50))
            }
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

import Foundation
import Synchronization

/// Reads a file descriptor (a tap's standard output) line by line on a thread of its own and
/// hands the lines to an async consumer, at most ``capacity`` lines ahead of it.
///
/// When the consumer falls behind, the thread stops reading, the pipe fills and the tap blocks
/// on its next write: memory stays bounded by `capacity` lines (each at most `maximumLine`
/// bytes), however much the tap prints. Lines end with `\n` (a `\r` before it is dropped); a
/// last line without one counts too.
final class TapLineReader: Sendable {
    /// One line of output, without its end.
    typealias Line = Data

    /// The lines, ending when the descriptor reaches its end; throws
    /// ``SingerError/Reason/lineTooLong(limit:)`` for a line over the limit.
    let lines: AsyncThrowingStream<Line, any Error>
    private let continuation: AsyncThrowingStream<Line, any Error>.Continuation
    private let control: Control

    /// What the reading thread and the consumer share.
    private final class Control: Sendable {
        /// Room for lines the consumer has not taken yet.
        let credits: DispatchSemaphore
        /// Whether the consumer is gone.
        let stopped = Atomic(false)

        /// The semaphore starts at zero and is signalled `capacity` times: libdispatch traps when
        /// a semaphore is freed holding less than its initial value, which one made with
        /// `value: capacity` does whenever the tap ends with lines the consumer never took (the
        /// test process crashed so in `TapLineReader.Control.deinit`).
        init(capacity: Int) {
            credits = DispatchSemaphore(value: 0)
            for _ in 0..<capacity { credits.signal() }
        }
    }

    /// Starts reading `handle` on a new thread; the thread closes it when done.
    init(_ handle: FileHandle, capacity: Int = 256, maximumLine: Int = 64 << 20, label: String) {
        (lines, continuation) = AsyncThrowingStream.makeStream(of: Line.self, bufferingPolicy: .unbounded)
        let control = Control(capacity: capacity)
        self.control = control
        continuation.onTermination = { _ in
            // The consumer is gone: wake the thread if it waits for room, so it can end.
            control.stopped.store(true, ordering: .sequentiallyConsistent)
            control.credits.signal()
        }
        let thread = Thread { [self] in
            read(handle, maximumLine: maximumLine)
            try? handle.close()
        }
        thread.name = label
        thread.start()
    }

    /// Ends the lines now, without waiting for the descriptor's end: for a tap that was stopped
    /// while a process it started still holds its output open.
    func abandon() { continuation.finish() }

    private func read(_ handle: FileHandle, maximumLine: Int) {
        let descriptor = handle.fileDescriptor
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        var line = Data()
        while true {
            let count = chunk.withUnsafeMutableBytes { Foundation.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                continuation.finish(throwing: SingerError.Reason.file("reading the tap's output: errno \(errno)"))
                return
            }
            if count == 0 {
                if !line.isEmpty { _ = deliver(line) }
                continuation.finish()
                return
            }
            var start = 0
            for index in 0..<count where chunk[index] == 0x0A {
                line.append(contentsOf: chunk[start..<index])
                start = index + 1
                if line.last == 0x0D { line.removeLast() }
                guard deliver(line) else { return }
                line = Data()
            }
            line.append(contentsOf: chunk[start..<count])
            if line.count > maximumLine {
                continuation.finish(throwing: SingerError.Reason.lineTooLong(limit: maximumLine))
                return
            }
        }
    }

    /// Hands `line` over once there is room; `false` when the consumer is gone.
    private func deliver(_ line: Line) -> Bool {
        control.credits.wait()
        guard !control.stopped.load(ordering: .sequentiallyConsistent) else { return false }
        continuation.yield(line)
        return true
    }

    /// Called by the consumer for each line it took, making room for another.
    func consumed() { control.credits.signal() }
}

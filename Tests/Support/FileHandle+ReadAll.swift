import Foundation

#if canImport(Glibc)
    import Glibc
#endif

extension FileHandle {
    /// Everything until the end of the file or pipe, read with `read(2)` and retried when a
    /// signal interrupts it: Foundation's `readDataToEndOfFile()` stops the process on `EINTR`,
    /// which the many child processes of a test run (and their `SIGCHLD`s) make likely.
    public func readAllRetryingInterrupts() -> Data {
        readRetryingInterrupts { _ in false }
    }

    /// What the pipe says until `enough` holds for all of it so far, or the pipe ends, read like
    /// ``readAllRetryingInterrupts()``: for a line a child process prints when it is ready.
    public func readRetryingInterrupts(until enough: (Data) -> Bool) -> Data {
        var data = Data()
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        while !enough(data) {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(fileDescriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return data }
            data.append(contentsOf: chunk[0..<count])
        }
        return data
    }
}

import FeedTestSupport
import Foundation

/// Runs the built `feedwork` binary as a user would, capturing its output and exit status.
struct FeedworkProcess {
    struct Result: Sendable {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// The `feedwork` binary beside the test bundle in the build folder.
    static var executable: URL {
        let testBinary = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var folder = testBinary.deletingLastPathComponent()
        while folder.path != "/" {
            let candidate = folder.appendingPathComponent("feedwork")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            folder.deleteLastPathComponent()
        }
        return URL(fileURLWithPath: ".build/debug/feedwork")
    }

    /// `feedwork arguments...`, not started, in `directory` with `environment` added to a
    /// minimal one; `launcher` (a command and its arguments, such as `setpriv ...`) runs it.
    private static func makeProcess(
        _ arguments: [String], in directory: URL, environment: [String: String], launcher: [String] = []
    ) -> Process {
        let process = Process()
        if let command = launcher.first {
            process.executableURL = URL(fileURLWithPath: command)
            process.arguments = launcher.dropFirst() + [executable.path] + arguments
        } else {
            process.executableURL = executable
            process.arguments = arguments
        }
        process.currentDirectoryURL = directory
        process.environment = ["PATH": "/usr/bin:/bin", "HOME": directory.path].merging(environment) { $1 }
        return process
    }

    /// Starts `feedwork arguments...` in `directory` without waiting, its output discarded.
    static func start(_ arguments: [String], in directory: URL, environment: [String: String] = [:]) throws -> Process {
        let process = makeProcess(arguments, in: directory, environment: environment)
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.spawn()
        return process
    }

    /// `feedwork` started by ``startCollecting(_:in:environment:)``: still running until
    /// ``finish()`` collects its output and status.
    struct Running {
        let process: Process
        let out: Pipe
        let err: Pipe

        /// Sends `signal` (such as `SIGINT`, as Ctrl-C does) to the process.
        func send(_ signal: Int32) { kill(process.processIdentifier, signal) }

        /// Sends `signal` and lets the process end without waiting for it (for a `defer`, which
        /// cannot wait): its output is read to the end and the process reaped on a thread of its own.
        func stop(_ signal: Int32 = SIGTERM) {
            send(signal)
            let (process, out, err) = (process, out, err)
            Thread {
                _ = out.fileHandleForReading.readAllRetryingInterrupts()
                _ = err.fileHandleForReading.readAllRetryingInterrupts()
                process.waitUntilExit()
            }.start()
        }

        /// Waits for the process to end, on a thread of its own (``OwnThread``); its output and
        /// exit status. Both pipes are read to their end before waiting, so a large output
        /// cannot block the child.
        func finish() async -> Result {
            await OwnThread.run {
                let stdout = out.fileHandleForReading.readAllRetryingInterrupts()
                let stderr = err.fileHandleForReading.readAllRetryingInterrupts()
                process.waitUntilExit()
                return Result(
                    status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
                    stderr: String(decoding: stderr, as: UTF8.self))
            }
        }
    }

    /// Starts `feedwork arguments...` in `directory` without waiting, collecting its output.
    static func startCollecting(
        _ arguments: [String], in directory: URL, environment: [String: String] = [:], launcher: [String] = []
    ) throws -> Running {
        let process = makeProcess(arguments, in: directory, environment: environment, launcher: launcher)
        let running = Running(process: process, out: Pipe(), err: Pipe())
        process.standardOutput = running.out
        process.standardError = running.err
        try process.spawn()
        return running
    }

    /// A new empty folder under the temporary directory, named `feedwork-PREFIX-UUID`, for
    /// one test's config, store and outputs.
    static func makeFolder(_ prefix: String) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "feedwork-\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// Runs `feedwork arguments...` in `directory` with `environment` added to a minimal one,
    /// waiting for it on a thread of its own (``OwnThread``).
    static func run(
        _ arguments: [String], in directory: URL, environment: [String: String] = [:], launcher: [String] = []
    ) async throws -> Result {
        try await startCollecting(arguments, in: directory, environment: environment, launcher: launcher).finish()
    }
}

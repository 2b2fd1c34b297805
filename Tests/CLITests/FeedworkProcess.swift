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

    /// ``run(_:in:environment:)`` on a thread of its own, so that waiting for the process does not
    /// hold one of the few cooperative threads the other tests run on.
    static func runOffPool(_ arguments: [String], in directory: URL, environment: [String: String] = [:])
        async throws -> Result
    {
        try await withCheckedThrowingContinuation { continuation in
            Thread {
                continuation.resume(with: Swift.Result { try run(arguments, in: directory, environment: environment) })
            }.start()
        }
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

        /// Waits for the process to end; its output and exit status. Both pipes are read to
        /// their end before waiting, so a large output cannot block the child.
        func finish() -> Result {
            let stdout = out.fileHandleForReading.readAllRetryingInterrupts()
            let stderr = err.fileHandleForReading.readAllRetryingInterrupts()
            process.waitUntilExit()
            return Result(
                status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
                stderr: String(decoding: stderr, as: UTF8.self))
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

    /// Runs `feedwork arguments...` in `directory` with `environment` added to a minimal one.
    static func run(
        _ arguments: [String], in directory: URL, environment: [String: String] = [:], launcher: [String] = []
    ) throws -> Result {
        try startCollecting(arguments, in: directory, environment: environment, launcher: launcher).finish()
    }
}

import ArgumentParser
import FeedEngine
import FeedKit
import Foundation

/// Why a command failed, with the exit status that says so: 2 for a usage or config error,
/// 1 for a failed operation. Commands throw it (or the engine's typed errors); ``ExitStatus``
/// prints and maps every error in one place.
struct CommandFailure: Error, CustomStringConvertible {
    /// The exit status.
    var status: Int32
    /// What to print on stderr, one line each; none when the command already reported it (a
    /// run whose table shows the failed feeds).
    var lines: [String]

    /// A usage or config error (status 2): `error: MESSAGE`.
    static func usage(_ message: String) -> CommandFailure {
        CommandFailure(status: ExitStatus.usage, lines: ["error: \(message)"])
    }

    /// A failed operation (status 1): `error: MESSAGE`.
    static func failed(_ message: String) -> CommandFailure { CommandFailure(status: 1, lines: ["error: \(message)"]) }

    /// A failure the command's own output already reports (status 1, nothing more printed).
    static let reported = CommandFailure(status: 1, lines: [])

    var description: String { lines.joined(separator: "\n") }
}

/// The one place where errors become messages on stderr and exit statuses.
///
/// | error | status |
/// |---|---|
/// | ``CommandFailure`` | its own |
/// | `ConfigError` (every problem, `file:line:column`) | 2 |
/// | `ExportError` | 2 for usage, else 1 |
/// | anything else a command throws (store, fetch, fixtures) | 1 |
///
/// Errors of argument-parser itself (unknown options, `--help`) keep its messages; its usage
/// errors exit 2 like ours (``FeedworkCommand`` maps them).
enum ExitStatus {
    /// The status of a usage or config error, argument-parser's own included.
    static let usage: Int32 = 2

    /// The lines to print and the status for `error`, or `nil` for argument-parser's own.
    static func of(_ error: any Error) -> (status: Int32, lines: [String])? {
        switch error {
        case let failure as CommandFailure: (failure.status, failure.lines)
        case let error as ConfigError: (ExitStatus.usage, error.problems.map(\.description))
        case let error as ExportError: (error.isUsageError ? ExitStatus.usage : 1, ["error: \(error)"])
        case is ExitCode, is CleanExit, is ValidationError: nil
        default:
            // argument-parser's parse errors are not public types; anything thrown past the parse is ours.
            (1, ["error: \(error)"])
        }
    }
}

import ArgumentParser
import Logging

/// `--log-level`, `-v` and `-q`, for the commands that fetch: log lines go to stderr, beside the
/// command's own output on stdout.
struct LoggingOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Log at this level and above on stderr: trace, debug, info, notice, warning, error, critical.",
            valueName: "level"))
    var logLevel: Logger.Level?

    @Flag(name: [.short, .long], help: "Log each request, retry and cache decision (--log-level debug).")
    var verbose = false

    @Flag(name: [.short, .long], help: "Only errors: no progress and no log below error (--log-level error).")
    var quiet = false

    /// The level asked for: `--log-level`, else `-v` or `-q`, else warning (nothing besides the
    /// command's own output on a normal run).
    var level: Logger.Level {
        logLevel ?? (verbose ? .debug : quiet ? .error : .warning)
    }

    func validate() throws {
        if verbose && quiet { throw ValidationError("-v and -q contradict each other; give one") }
    }

    /// The level `command` asks for with its logging options; `warning` for a command without
    /// them. Nonisolated, so that looking at the command on the main actor does not tie it to
    /// the main actor, from which it is then sent to run.
    nonisolated static func level(chosenBy command: any ParsableCommand) -> Logger.Level {
        (command as? any LogLevelChoosing)?.logging.level ?? .warning
    }

    /// Sends every logger's lines to stderr at `level`: called once, by ``FeedworkCommand/main()``,
    /// for every command, so one that has no logging options logs warnings and above only.
    static func bootstrap(level: Logger.Level) {
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
    }
}

extension Logger.Level: @retroactive ExpressibleByArgument {}

/// A command whose log level the user chooses with ``LoggingOptions``.
protocol LogLevelChoosing {
    var logging: LoggingOptions { get }
}

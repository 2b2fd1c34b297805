import ArgumentParser
import FeedEngine
import FeedKit

/// Feedwork's command line as a library, for a program of its own that registers its adapters
/// beside (or instead of) the built-in ones:
///
/// ```swift
/// import AcmeFeed
/// import FeedworkAdapters
/// import FeedworkCLI
///
/// await Feedwork.main(adapters: builtinAdapters + [AcmeAdapter.self])
/// ```
///
/// docs/adapters/own-package.md shows the package around it.
public enum Feedwork {
    /// Registers `adapters`, then parses the command line and runs the command, with every
    /// subcommand of `feedwork` (`run`, `worker`, `serve`, `adapters`...) seeing these adapters.
    ///
    /// Two adapters under one name are refused before anything else, with status 2 and both
    /// types named. Exits with the command's status; never returns.
    public static func main(adapters: [any FeedAdapter.Type]) async -> Never {
        do {
            try RegisteredAdapters.bootstrap(adapters)
        } catch {
            Console.error("error: \(error)")
            FeedworkCommand.exit(withError: ExitCode(ExitStatus.usage))
        }
        await FeedworkCommand.main()
        FeedworkCommand.exit()
    }
}

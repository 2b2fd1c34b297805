import ArgumentParser
import FeedEngine
import FeedKit

/// `feedwork gc`: removes mirrored images that no row names any more.
struct GCCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gc",
        abstract: "Remove mirrored media (images of media columns) that no row of any feed names any more.",
        discussion: """
            Each pass forgets the image URLs its rows stopped naming; `feedwork gc` then removes \
            the images no URL points at, once they are older than the grace period (so an image \
            a pass is mirroring at that moment stays). One transaction. Exit status: 0, 1 when \
            there is no store, 2 for a config or usage error.

            Examples:
              feedwork gc
              feedwork gc --grace 0s
            """)

    @OptionGroup var options: ConfigOptions

    @Option(help: "Keep unreferenced media fetched within this long (e.g. 1h, 0s).")
    var grace = "1h"

    func run() async throws {
        let config = try options.load(unsetVariables: .placeholder)
        try ConfigOptions.requireStore(at: config.storeLocation)
        guard try config.storeExists() else { throw CommandFailure.failed("no store at \(config.storeLocation)") }
        guard let period = FeedDuration(parsing: grace) else {
            throw CommandFailure.usage("--grace '\(grace)' is not a duration (e.g. 1h, 30m, 0s)")
        }
        Console.print(try await config.collectMediaGarbage(grace: period))
    }
}

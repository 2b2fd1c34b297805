import Foundation
import Hummingbird

extension ServeApplication {
    /// Starts the event loops the server runs on (SwiftNIO's shared group, a thread a core) on a
    /// thread of their own, and returns at once; that thread then makes the Gregorian calendar
    /// in GMT that Hummingbird writes each response's `Date` header with.
    ///
    /// Both are made on the way to listening otherwise: the group waits for each loop's thread,
    /// and the calendar's first making reads ICU's time zone data. Called first, they are made
    /// on the other core while `feedwork serve` reads the config and opens the store, and are
    /// ready by the time it binds.
    public static func startEventLoops() {
        Thread.detachNewThread {
            _ = EventLoopGroupProvider.singleton.eventLoopGroup
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = .gmt
            _ = calendar.dateComponents([.year, .weekday], from: Date())
        }
    }

    /// Serves until SIGTERM or SIGINT, then shuts down gracefully: `feedwork serve`.
    ///
    /// - Parameter onServerRunning: called once with the port the server listens on.
    public func run(onServerRunning: @escaping @Sendable (Int) async -> Void) async throws {
        let app = application(onServerRunning: onServerRunning)
        let group = app.serviceGroup(
            named: "feedwork serve", gracefulShutdownSignals: [.sigterm, .sigint], logger: app.logger)
        try await group.run()
    }
}

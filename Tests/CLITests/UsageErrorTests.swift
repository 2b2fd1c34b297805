import Foundation
import Testing

/// Usage errors exit 2 whoever finds them: argument-parser (an unknown option, a missing
/// value) or a command (options that do not go together), as the command reference
/// (docs/reference/commands.md) says.
@Suite("Usage errors")
struct UsageErrorTests {
    let directory = FileManager.default.temporaryDirectory

    @Test func anUnknownOptionExitsTwoWithTheCommandsUsage() async throws {
        let result = try await FeedworkProcess.run(["export", "--no-such-option"], in: directory)
        #expect(result.status == 2)
        #expect(result.stderr.contains("Unknown option '--no-such-option'"))
        #expect(result.stderr.contains("Usage: feedwork export"))
    }

    @Test func aMissingOptionValueExitsTwo() async throws {
        let result = try await FeedworkProcess.run(["run", "--wait"], in: directory)
        #expect(result.status == 2)
        #expect(result.stderr.contains("Missing value for '--wait"))
    }

    @Test func anUnknownSubcommandExitsTwo() async throws {
        let result = try await FeedworkProcess.run(["exprot"], in: directory)
        #expect(result.status == 2)
    }

    @Test func helpStillExitsZero() async throws {
        let result = try await FeedworkProcess.run(["run", "--help"], in: directory)
        #expect(result.status == 0)
        #expect(result.stdout.contains("USAGE: feedwork run"))
    }
}

import Foundation
import Testing

/// A config path that is not a file is named for what it is, not reported as a permission
/// problem the user does not have.
@Suite("Reliability: config paths that are not files")
struct ConfigPathTests {
    @Test func aConfigThatIsADeviceIsReportedAsADevice() async throws {
        let directory = try FeedworkProcess.makeFolder("configpath")
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try await FeedworkProcess.run(["validate", "-c", "/dev/null"], in: directory)
        #expect(result.status == 2)
        #expect(
            result.stderr.contains("/dev/null:1:1: error: /dev/null is a device, not a config file"),
            "\(result.stderr)")
        #expect(!result.stderr.lowercased().contains("permission"), "\(result.stderr)")
    }
}

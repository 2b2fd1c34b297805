import Foundation

/// The currency adapter's recorded responses (`list.json`, `live.json`), for tests that run a
/// `currency` feed from files.
enum CurrencyFixtureFiles {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Adapters/Currency/Fixtures")

    /// Copies both files into `directory`.
    static func copy(into directory: URL) throws {
        for name in ["list.json", "live.json"] {
            try FileManager.default.copyItem(
                at: folder.appendingPathComponent(name), to: directory.appendingPathComponent(name))
        }
    }
}

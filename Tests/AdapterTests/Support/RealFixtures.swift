import Foundation

/// The real API responses in `../shared/fixtures/real` beside the checkout, when present.
///
/// A user's clone has no such folder: tests over it are skipped with a message, so the clone
/// still passes. CI (`CI` set) lays `shared/` beside its checkout, so there they always run, and
/// fail, naming the folder, when it is missing rather than pass unseen.
enum RealFixtures {
    /// Why a file of the folder cannot be read.
    struct Missing: Error, CustomStringConvertible {
        var path: String
        var description: String {
            "\(path): ../shared/fixtures/real is not beside the checkout (CI lays a copy of shared/ there)"
        }
    }

    /// The folder, or `nil` when it is not there.
    static let directory: URL? = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<4 { url.deleteLastPathComponent() }  // Tests/AdapterTests/Support/RealFixtures.swift
        let candidate = url.deletingLastPathComponent().appendingPathComponent("shared/fixtures/real")
        return FileManager.default.fileExists(atPath: candidate.path) ? candidate : nil
    }()

    /// Whether the tests over the folder run: where it is, and always in CI.
    static var available: Bool { directory != nil || ProcessInfo.processInfo.environment["CI"] != nil }

    static func data(_ path: String) throws -> Data {
        guard let directory else { throw Missing(path: path) }
        return try Data(contentsOf: directory.appendingPathComponent(path))
    }
}

/// Files of this test target's own `Fixtures/` folder.
enum TestFixtures {
    static let directory: URL = {
        var url = URL(fileURLWithPath: #filePath)
        url.deleteLastPathComponent()
        url.deleteLastPathComponent()
        return url.appendingPathComponent("Fixtures")
    }()

    static func data(_ path: String) throws -> Data { try Data(contentsOf: directory.appendingPathComponent(path)) }
}

/// Files of an adapter's own `Adapters/<Name>/Fixtures/` folder.
enum AdapterFixtures {
    static let adapters: URL = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<4 { url.deleteLastPathComponent() }  // Tests/AdapterTests/Support/RealFixtures.swift
        return url.appendingPathComponent("Adapters")
    }()

    /// `path` in the fixtures of the adapter folder `adapter` (`Currency`).
    static func url(_ adapter: String, _ path: String) -> URL {
        adapters.appendingPathComponent(adapter).appendingPathComponent("Fixtures").appendingPathComponent(path)
    }
}

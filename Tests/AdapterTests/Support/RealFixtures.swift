import Foundation

/// The real API responses in `../shared/fixtures/real` beside the checkout, when present.
///
/// A user's clone has no such folder: tests over it are skipped with a message, so the clone
/// still passes.
enum RealFixtures {
    /// The folder, or `nil` when it is not there.
    static let directory: URL? = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<4 { url.deleteLastPathComponent() }  // Tests/AdapterTests/Support/RealFixtures.swift
        let candidate = url.deletingLastPathComponent().appendingPathComponent("shared/fixtures/real")
        return FileManager.default.fileExists(atPath: candidate.path) ? candidate : nil
    }()

    static var available: Bool { directory != nil }

    static func data(_ path: String) throws -> Data {
        guard let directory else { throw CocoaError(.fileNoSuchFile) }
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

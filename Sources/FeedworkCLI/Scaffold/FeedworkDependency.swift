import Foundation

/// How a scaffolded package depends on Feedwork: a checkout on this machine
/// (`.package(path:)`), or the published repository at this binary's version (`.package(url:)`).
enum FeedworkDependency: Equatable {
    /// A checkout, by its absolute path.
    case path(String)
    /// The published repository, from a version on.
    case url(String, from: String)

    /// The published repository that docs/adapters/own-package.md names too.
    static let repositoryURL = "https://github.com/feedwork/feedwork"

    /// The checkout at `path` (relative to the current folder, or absolute), or the published
    /// repository at `version` when `path` is `nil`.
    ///
    /// - Throws: ``CommandFailure`` (status 2) when `path` holds no Package.swift.
    static func resolve(path: String?, version: String) throws(CommandFailure) -> FeedworkDependency {
        guard let path else { return .url(repositoryURL, from: version) }
        let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
        guard FileManager.default.fileExists(atPath: absolute + "/Package.swift") else {
            throw CommandFailure.usage(
                "\(absolute) holds no Package.swift: --feedwork-path names a checkout of Feedwork")
        }
        return .path(absolute)
    }

    /// The line of Package.swift's `dependencies:`.
    var declaration: String {
        switch self {
        case .path(let path): ".package(path: \(Self.literal(path)))"
        case .url(let url, let version): ".package(url: \(Self.literal(url)), from: \(Self.literal(version)))"
        }
    }

    /// The package's identity, which `.product(name:package:)` names: SwiftPM takes the last
    /// part of the path or URL (without `.git`), lowercased; a checkout in a folder `main` is
    /// the package `main`.
    var identity: String {
        let last: String
        switch self {
        case .path(let path): last = URL(fileURLWithPath: path).lastPathComponent
        case .url(let url, _): last = URL(string: url)?.lastPathComponent ?? "feedwork"
        }
        return (last.hasSuffix(".git") ? String(last.dropLast(4)) : last).lowercased()
    }

    /// `text` as a Swift string literal.
    private static func literal(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}

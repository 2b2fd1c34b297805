import Foundation
import Testing

@testable import FeedworkCLI

/// `feedwork new adapter NAME` writes a package with an adapter of its own, or refuses and
/// writes nothing. (scripts/scaffold-check.sh, in CI, builds, runs and tests what it writes.)
@Suite("feedwork new adapter")
struct NewAdapterCommandTests {
    let directory: URL

    init() throws {
        directory = try FeedworkProcess.makeFolder("new-adapter")
    }

    /// This checkout, the Feedwork a scaffold can depend on by path.
    static let checkout = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../..").standardizedFileURL

    func text(_ path: String, in folder: String = "acme") throws -> String {
        try String(contentsOf: directory.appendingPathComponent(folder).appendingPathComponent(path), encoding: .utf8)
    }

    func entries(_ folder: URL) -> [String] {
        ((try? FileManager.default.subpathsOfDirectory(atPath: folder.path)) ?? []).sorted()
    }

    @Test func itWritesThePackageWithTheAdapterItsCommandFeedFixturesAndTests() async throws {
        let result = try await FeedworkProcess.run(
            ["new", "adapter", "acme", "--path", "acme", "--feedwork-path", Self.checkout.path], in: directory)
        #expect(result.status == 0, "\(result.stderr)")
        let files = entries(directory.appendingPathComponent("acme")).filter {
            !$0.hasSuffix("/") && !["Sources", "Tests", "Fixtures"].contains($0)
        }
        for expected in [
            "Package.swift", "README.md", ".gitignore", "feeds.yaml", "Fixtures/acme.json",
            "Sources/AcmeFeed/AcmeAdapter.swift", "Sources/acme-feedwork/main.swift",
            "Tests/AcmeFeedTests/AcmeAdapterTests.swift", "Fixtures/recorded/feed.yaml",
            "Fixtures/recorded/responses.json", "Fixtures/recorded/responses/001.json",
            "Fixtures/recorded/expected/acme_item.ndjson", "Fixtures/recorded/expected/_rejects.ndjson",
        ] {
            #expect(files.contains(expected), "\(expected) is missing from \(files)")
        }
        #expect(try text("Sources/AcmeFeed/AcmeAdapter.swift").contains("public struct AcmeAdapter: FeedAdapter"))
        #expect(try text("Sources/acme-feedwork/main.swift").contains("builtinAdapters + [AcmeAdapter.self]"))
        #expect(try text("feeds.yaml").contains("fixtures: Fixtures/recorded"))
        #expect(result.stdout.contains("swift run acme-feedwork test"))
    }

    @Test func aRelativeFeedworkPathBecomesAnAbsoluteDependencyWhoseFolderNamesTheProducts() async throws {
        let relative =
            Array(repeating: "..", count: directory.pathComponents.count - 1).joined(separator: "/")
            + Self.checkout.path
        let result = try await FeedworkProcess.run(
            ["new", "adapter", "acme", "--path", "acme", "--feedwork-path", relative], in: directory)
        #expect(result.status == 0, "\(result.stderr)")
        let package = try text("Package.swift")
        let identity = Self.checkout.lastPathComponent.lowercased()
        #expect(package.contains(".package(path: \"\(Self.checkout.path)\")"), "\(package)")
        #expect(package.contains(".product(name: \"FeedKit\", package: \"\(identity)\")"))
        #expect(package.contains(".product(name: \"FeedTestSupport\", package: \"\(identity)\")"))
        #expect(!package.contains(".package(url:"))
    }

    @Test func withoutAFeedworkPathItDependsOnThePublishedFeedworkAtThisVersion() async throws {
        let result = try await FeedworkProcess.run(["new", "adapter", "acme", "--path", "acme"], in: directory)
        #expect(result.status == 0, "\(result.stderr)")
        let package = try text("Package.swift")
        let version = FeedworkCommand.configuration.version
        #expect(package.contains(#".package(url: "https://github.com/feedwork/feedwork", from: "\#(version)")"#))
        #expect(package.contains(#".product(name: "FeedworkCLI", package: "feedwork")"#))
    }

    @Test func theFolderDefaultsToNameFeedwork() async throws {
        let result = try await FeedworkProcess.run(["new", "adapter", "my_api"], in: directory)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try text("Sources/MyApiFeed/MyApiAdapter.swift", in: "my_api-feedwork").contains("name: \"my_api\""))
    }

    @Test func aFolderThatHoldsAnythingIsRefusedAndNothingIsWritten() async throws {
        let folder = directory.appendingPathComponent("busy")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data("notes".utf8).write(to: folder.appendingPathComponent("notes.txt"))
        let result = try await FeedworkProcess.run(["new", "adapter", "acme", "--path", "busy"], in: directory)
        #expect(result.status == 2)
        #expect(result.stderr.contains("error: \(folder.path) is not empty"), "\(result.stderr)")
        #expect(entries(folder) == ["notes.txt"])
    }

    @Test(arguments: ["Acme", "1acme", "ac-me", "acme_", "a__b", "acmé", String(repeating: "a", count: 41)])
    func aNameThatIsNotALowercaseIdentifierIsAUsageError(_ name: String) async throws {
        let result = try await FeedworkProcess.run(["new", "adapter", name], in: directory)
        #expect(result.status == 2)
        #expect(result.stderr.contains("error: '\(name)' is not a valid adapter name: an adapter name is a lowercase"))
        #expect(entries(directory).isEmpty)
    }

    @Test func theNameOfABuiltInAdapterIsRefused() async throws {
        let result = try await FeedworkProcess.run(["new", "adapter", "fruit"], in: directory)
        #expect(result.status == 2)
        #expect(result.stderr.contains("'fruit' is the name of an adapter this feedwork has already"))
        #expect(entries(directory).isEmpty)
    }

    @Test func aNameGivesItsTypeModuleAndEntity() throws {
        let name = try AdapterName("my_api2")
        #expect(name.adapterType == "MyApi2Adapter")
        #expect(name.module == "MyApi2Feed")
        #expect(name.entity == "my_api2_item")
        #expect(name.packageName == "my_api2-feedwork")
    }
}

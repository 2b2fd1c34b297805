import ArgumentParser
import Foundation

/// `feedwork new adapter NAME`: writes a Swift package with an adapter of its own, ready to
/// build, run, record and test (docs/adapters/from-the-scaffold.md walks through it).
struct NewAdapterCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "adapter",
        abstract: "Write a package with a new adapter, a command of its own, a feed, fixtures and tests.",
        discussion: """
            The package holds the adapter (Sources/<Name>Feed), the command NAME-feedwork, \
            Feedwork's with the adapter registered beside the built-in ones \
            (Sources/NAME-feedwork), a feeds.yaml that runs it offline from Fixtures/NAME.json, a \
            recorded fixture suite (Fixtures/recorded) and tests through FeedTestSupport. In its \
            folder, as written: swift build, swift run NAME-feedwork run, swift run \
            NAME-feedwork test, swift test.

            It depends on the published Feedwork at this version, or on a checkout with \
            --feedwork-path. A folder that holds anything is refused and nothing is written.

            Examples:
              feedwork new adapter acme
              feedwork new adapter acme --path ../acme --feedwork-path ../feedwork
            """)

    @Argument(help: "The adapter's name in feeds.yaml: a lowercase identifier, such as acme or my_api.")
    var name: String

    @Option(help: "The folder to write, new or empty (default: ./NAME-feedwork).", completion: .directory)
    var path: String?

    @Option(help: "A checkout of Feedwork to depend on (default: the published package).", completion: .directory)
    var feedworkPath: String?

    func run() throws {
        let adapterName = try AdapterName(name)
        if RegisteredAdapters.registry.names.contains(adapterName.name) {
            throw CommandFailure.usage(
                "'\(adapterName.name)' is the name of an adapter this feedwork has already; choose another")
        }
        let dependency = try FeedworkDependency.resolve(
            path: feedworkPath, version: FeedworkCommand.configuration.version)
        let folder = URL(fileURLWithPath: path ?? adapterName.packageName).standardizedFileURL
        let scaffold = AdapterScaffold(name: adapterName, dependency: dependency)
        try scaffold.write(into: folder)
        let command = "swift run \(adapterName.packageName)"
        let steps = [
            ("swift build", "build it (Feedwork's libraries too, the first time)"),
            ("\(command) run", "load Fixtures/\(adapterName.name).json into feeds.sqlite"),
            ("\(command) test", "replay the recorded suite in Fixtures/recorded"),
            ("swift test", "the adapter's tests against a loopback server"),
        ]
        let width = steps.map(\.0.count).max() ?? 0
        let wrote =
            "Wrote \(scaffold.files.count) files into \(folder.path): adapter \(adapterName.name) "
            + "(\(adapterName.module).\(adapterName.adapterType))."
        Console.print(wrote + "\nNext, in that folder:")
        for (line, what) in steps {
            Console.print("  " + line.padding(toLength: width + 2, withPad: " ", startingAt: 0) + what)
        }
    }
}

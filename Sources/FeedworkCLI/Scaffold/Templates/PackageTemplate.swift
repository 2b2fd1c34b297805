/// The scaffold's Package.swift: the adapter's target on `FeedKit` alone (as Feedwork's own
/// adapters), the `NAME-feedwork` executable on `FeedworkCLI` and `FeedworkAdapters`, and the
/// tests on `FeedTestSupport`.
///
/// The executable is not called `feedwork`: Feedwork has a target and an executable product of
/// that name, and SwiftPM refuses a second target of one name in a package graph and links
/// only one of two executables of one name (Feedwork's, without the new adapter).
enum PackageTemplate {
    static func text(_ name: AdapterName, dependency: FeedworkDependency) -> String {
        let feedwork = dependency.identity
        return ##"""
            // swift-tools-version: 6.0
            import PackageDescription

            /// \##(name.packageName): Feedwork's command line with the \##(name.name) adapter beside the built-in ones.
            let package = Package(
                name: "\##(name.packageName)",
                platforms: [.macOS(.v15)],
                dependencies: [
                    // Its products are named with the package's identity, "\##(feedwork)": the last part of
                    // the path or URL (docs/adapters/own-package.md in Feedwork).
                    \##(dependency.declaration)
                ],
                targets: [
                    // The adapter: FeedKit only, as Feedwork's own adapters.
                    .target(name: "\##(name.module)", dependencies: [.product(name: "FeedKit", package: "\##(feedwork)")]),
                    // `swift run \##(name.packageName) ...`: every feedwork command, with the built-in adapters
                    // and this one (Sources/\##(name.packageName)/main.swift).
                    .executableTarget(
                        name: "\##(name.packageName)",
                        dependencies: [
                            "\##(name.module)",
                            .product(name: "FeedworkCLI", package: "\##(feedwork)"),
                            .product(name: "FeedworkAdapters", package: "\##(feedwork)"),
                        ]),
                    // The adapter's tests: a loopback HTTP server and a harness running the real engine.
                    .testTarget(
                        name: "\##(name.testModule)",
                        dependencies: [
                            "\##(name.module)",
                            .product(name: "FeedTestSupport", package: "\##(feedwork)"),
                            .product(name: "FeedEngine", package: "\##(feedwork)"),
                        ]),
                ],
                swiftLanguageModes: [.v6]
            )

            """##
    }
}

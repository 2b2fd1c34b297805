// swift-tools-version: 6.0
import PackageDescription

/// Feedwork: many JSON web APIs into one SQLite store.
///
/// Arrows point one way: `feedwork` (CLI) -> adapters -> `FeedCore`.
/// `FeedCore` never names an adapter; the CLI registers the built-in ones.
let package = Package(
    name: "Feedwork",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "feedwork", targets: ["feedwork"]),
        .library(name: "FeedCore", targets: ["FeedCore"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    ],
    targets: [
        // libcurl from the system (libcurl4-openssl-dev), with inline shims for its variadic calls.
        .systemLibrary(
            name: "CCurl",
            pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"])]
        ),
        // zlib from the system, to keep cached response bodies small in the store.
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        // SQLite settings that its C API offers only through variadic functions.
        .target(name: "CSQLiteTuning", linkerSettings: [.linkedLibrary("sqlite3")]),
        .target(
            name: "FeedCore",
            dependencies: [
                "CCurl", "CZlib", "CSQLiteTuning",
                .product(name: "GRDB", package: "GRDB.swift"),
                // The raw SQLite API, for binding values on the write path without boxing each one.
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "Yams", package: "Yams"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .target(name: "FruitFeed", dependencies: ["FeedCore"], path: "Adapters/Fruit", exclude: ["Fixtures"]),
        .target(
            name: "DestinationFeed", dependencies: ["FeedCore"], path: "Adapters/Destination", exclude: ["Fixtures"]),
        .target(
            name: "ClassifiedFeed", dependencies: ["FeedCore"], path: "Adapters/Classified", exclude: ["Fixtures"]),
        .target(name: "CurrencyFeed", dependencies: ["FeedCore"], path: "Adapters/Currency", exclude: ["Fixtures"]),
        .target(name: "JSONFeed", dependencies: ["FeedCore"], path: "Adapters/JSON", exclude: ["Fixtures"]),
        .executableTarget(
            name: "feedwork",
            dependencies: [
                "FeedCore", "FruitFeed", "DestinationFeed", "ClassifiedFeed", "CurrencyFeed", "JSONFeed",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // The throughput benchmark's synthetic API, a process of its own (see Benchmarks/README.md).
        .executableTarget(name: "feedwork-bench-server", dependencies: ["FeedTestSupport"], path: "Benchmarks/Server"),
        // A real HTTP server on 127.0.0.1 for tests, able to misbehave on cue.
        .target(
            name: "FeedTestSupport", dependencies: ["FeedCore", .product(name: "GRDB", package: "GRDB.swift")],
            path: "Tests/Support"),
        .testTarget(
            name: "FeedCoreTests",
            dependencies: ["FeedCore", "FeedTestSupport", .product(name: "GRDB", package: "GRDB.swift")]
        ),
        .testTarget(
            name: "AdapterTests",
            dependencies: [
                "FeedCore", "FeedTestSupport", "FruitFeed", "DestinationFeed", "ClassifiedFeed",
                "CurrencyFeed", "JSONFeed",
            ],
            exclude: ["Fixtures"]
        ),
        .testTarget(name: "CLITests", dependencies: ["feedwork", "FeedTestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)

// swift-tools-version: 6.0
import PackageDescription

/// Feedwork: many web APIs (JSON, XML, CSV) into one store, SQLite or PostgreSQL.
///
/// Targets by audience, with arrows that point one way (ARCHITECTURE.md has the whole map):
///
///     feedwork (main.swift) -> FeedworkCLI, FeedworkAdapters
///     FeedworkAdapters -> adapters -> FeedKit
///     FeedworkCLI -> FeedServer -> FeedEngine -> FeedKit
///     FeedworkCLI, FeedServer -> FeedMCP -> FeedEngine -> FeedKit
///     FeedworkCLI -> FeedFixtures -> FeedEngine
///     FeedworkCLI, FeedServer, the currency adapter -> FeedPricing -> FeedKit
///     FeedEngine -> FeedStore (protocols) -> FeedKit
///     FeedEngine -> FeedStoreDrivers (StoreFactory) -> FeedStoreSQLite, FeedStorePostgres -> FeedStore
///
/// - `FeedKit`: the adapter SDK, and all an adapter may import. No SQL is reachable from it.
/// - `FeedEngine`: config, fetcher, engine, worker, export and browsing, over the store
///   layer's protocols; it re-exports `FeedStore` and never names an adapter or a driver.
/// - `FeedStore`: the store layer's protocols (`StoreDriver`, `SQLConnection`, `SQLDialect`,
///   `EntityWriting`...), shared types and the jobs written once for every driver; `FeedStoreSQLite` and `FeedStorePostgres`: the drivers;
///   `FeedStoreDrivers`: `StoreFactory`, the one place that names a driver.
/// - `FeedServer`: `feedwork serve` and the worker's metrics and health endpoints.
/// - `FeedMCP`: `feedwork mcp`, a Model Context Protocol server over the store, read-only.
/// - `FeedPricing`: basket pricing with stored exchange rates (`feedwork price`, `/api/price`).
/// - `FeedFixtures`: recording and replaying feeds for `feedwork test` and `feedwork record`.
/// - `FeedTestSupport`: a loopback HTTP server and a harness, for testing adapters.
/// - `FeedworkCLI`: the command line as a library (`Feedwork.main(adapters:)`), and
///   `FeedworkAdapters`: the built-in adapters' list (`builtinAdapters`). `feedwork` is one
///   call of the first with the second; a package of its own adds its adapters to the list
///   (docs/adapters/own-package.md).

/// The built-in adapters: each is the folder `Adapters/<Name>` with a `public struct
/// <Name>Adapter: FeedAdapter`, built as the target `<Name>Feed`, which imports `FeedKit` only.
/// Adding a name here is all it takes to register one: the `BuiltinAdapterList` plugin writes
/// `FeedworkAdapters`'s `builtinAdapters` from this one.
let builtinAdapters = ["Fruit", "Destination", "Classified", "Currency", "JSON", "Singer"]
let adapterTargets = builtinAdapters.map { Target.Dependency(stringLiteral: "\($0)Feed") }

let package = Package(
    name: "Feedwork",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "feedwork", targets: ["feedwork"]),
        .library(name: "FeedKit", targets: ["FeedKit"]),
        // For a program of one's own with its adapters (docs/adapters/own-package.md).
        .library(name: "FeedworkCLI", targets: ["FeedworkCLI"]),
        .library(name: "FeedworkAdapters", targets: ["FeedworkAdapters"]),
        .library(name: "FeedEngine", targets: ["FeedEngine"]),
        .library(name: "FeedTestSupport", targets: ["FeedTestSupport"]),
    ],
    dependencies: [
        // SQLite access for the store (on the system libsqlite3).
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        // feeds.yaml parsing, with line and column for every node.
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        // The command line.
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        // Log lines (requests, retries, cache decisions) at the level a user asks for.
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        // The HTTP server of `feedwork worker --metrics` (on SwiftNIO, the one server stack).
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        // Hummingbird's own stack, named for the connection guard of `feedwork serve` (a channel
        // handler bounding the time to a request's head, see RequestDeadlineHandler).
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.3"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.2"),
        // Graceful shutdown of the HTTP server (Hummingbird builds on it already).
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        // Mustache templates for the HTML pages of `feedwork serve` (escapes every value by default;
        // the templates are Swift string constants, so the binary carries them).
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.1.1"),
        // `swift package generate-documentation`: FeedKit's DocC catalog for adapter authors
        // (scripts/docc.sh, in CI). A command plugin: it builds only when the command runs.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // libcurl and libpq from the system, loaded when a command first needs them rather than
        // linked (see CDynamicLibrary): their headers come from libcurl4-openssl-dev and libpq-dev.
        .target(name: "CDynamicLibrary", linkerSettings: [.linkedLibrary("dl"), .linkedLibrary("pthread")]),
        // libcurl, with fixed signatures for its variadic calls.
        .target(name: "CCurl", dependencies: ["CDynamicLibrary"]),
        // libpq, the PostgreSQL store's client: nothing to build, and COPY as fast as
        // PostgresNIO's (see docs/explanation/architecture.md for the figures).
        .target(name: "CLibPQ", dependencies: ["CDynamicLibrary"]),
        // Zstandard from the system, to keep cached response bodies small in the store; zlib to
        // read the bodies stores kept before (see BodyCompression).
        .systemLibrary(name: "CZstd", pkgConfig: "libzstd", providers: [.apt(["libzstd-dev"])]),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        // SQLite settings that its C API offers only through variadic functions.
        .target(name: "CSQLiteTuning", linkerSettings: [.linkedLibrary("sqlite3")]),
        .target(name: "FeedKit"),
        // Basket pricing with stored exchange rates: `feedwork price`, serve's `/api/price` and
        // the currency adapter's entities, in one place.
        .target(name: "FeedPricing", dependencies: ["FeedKit"]),
        // The store layer's protocols and shared types: what every driver implements and the
        // engine calls (StoreReading, StoreDriver, SQLConnection, SQLDialect...), the jobs
        // written once on them, the run records, the system tables' description, and the
        // export's queries and writers. No database library: a driver words its library's
        // errors itself, so the compiler keeps shared code from knowing a driver.
        .target(name: "FeedStore", dependencies: ["FeedKit", "CZstd", "CZlib"]),
        // The SQLite driver: a store in one file, through GRDB.
        .target(
            name: "FeedStoreSQLite",
            dependencies: [
                "FeedKit", "FeedStore", "CSQLiteTuning",
                .product(name: "GRDB", package: "GRDB.swift"),
                // The raw SQLite API, for binding values on the write path without boxing each one.
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ]
        ),
        // The PostgreSQL driver: a store in one schema of a server, through libpq.
        .target(
            name: "FeedStorePostgres",
            dependencies: ["FeedKit", "FeedStore", "CLibPQ", .product(name: "Logging", package: "swift-log")]
        ),
        // StoreFactory, the one place that names a driver: from a store's location to the driver
        // that opens it. The engine imports this and FeedStore, never a driver.
        .target(
            name: "FeedStoreDrivers", dependencies: ["FeedKit", "FeedStore", "FeedStoreSQLite", "FeedStorePostgres"]),
        .target(
            name: "FeedEngine",
            dependencies: [
                "FeedKit", "FeedStore", "FeedStoreDrivers", "CCurl",
                .product(name: "Yams", package: "Yams"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // HTTP endpoints over the engine: the worker's metrics and health check, and `feedwork serve`
        // (web pages and a JSON API over the store, read-only).
        .target(
            name: "FeedServer",
            dependencies: [
                "FeedKit", "FeedEngine", "FeedPricing", "FeedMCP",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "Mustache", package: "swift-mustache"),
            ]
        ),
        // `feedwork mcp`: a Model Context Protocol server over the store, read-only (JSON-RPC 2.0 on
        // Foundation and FeedKit's JSON: the protocol is a handful of messages, see
        // docs/explanation/architecture.md).
        .target(name: "FeedMCP", dependencies: ["FeedKit", "FeedEngine"]),
        .target(
            name: "FeedFixtures",
            dependencies: ["FeedKit", "FeedEngine", "FeedStoreDrivers", .product(name: "Yams", package: "Yams")]),
        // The command line as a library: every command, its options and output, run by
        // `Feedwork.main(adapters:)` with the adapters a program registers. It names no adapter
        // but the two whose types commands use (`init` drafts a json feed, `price` reads the
        // currency feeds' options).
        .target(
            name: "FeedworkCLI",
            dependencies: [
                "FeedKit", "FeedEngine", "FeedFixtures", "FeedPricing", "FeedServer", "FeedMCP", "CurrencyFeed",
                "JSONFeed",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The built-in adapters as one list, `builtinAdapters`, written by the plugin below.
        .target(name: "FeedworkAdapters", dependencies: ["FeedKit"] + adapterTargets, plugins: ["BuiltinAdapterList"]),
        // `feedwork`: `Feedwork.main(adapters: builtinAdapters)`, and nothing else.
        .executableTarget(name: "feedwork", dependencies: ["FeedworkCLI", "FeedworkAdapters"]),
        // Writes `FeedworkAdapters`'s list of the built-in adapters from `builtinAdapters` above.
        .plugin(name: "BuiltinAdapterList", capability: .buildTool()),
        // The throughput benchmark's synthetic API, a process of its own (see Benchmarks/README.md).
        .executableTarget(name: "feedwork-bench-server", dependencies: ["FeedTestSupport"], path: "Benchmarks/Server"),
        // A real HTTP server on 127.0.0.1 and a harness that runs one feed into a temporary store.
        // A product for adapter authors: it opens stores through the engine alone, so it names no
        // driver and no database library (a test that reaches into a driver lists it itself).
        .target(name: "FeedTestSupport", dependencies: ["FeedKit", "FeedEngine"], path: "Tests/Support"),
        // The engine's tests, and store behaviour on both stores through the store layer's
        // protocols; the SQLite driver and GRDB for tests that make or age an SQLite store by hand.
        .testTarget(
            name: "FeedEngineTests",
            dependencies: [
                "FeedKit", "FeedEngine", "FeedStore", "FeedStoreDrivers", "FeedStoreSQLite", "FeedFixtures",
                "FeedTestSupport", "CDynamicLibrary", .product(name: "GRDB", package: "GRDB.swift"),
            ],
            exclude: ["Fetch/Fixtures"]
        ),
        // Each driver's own types, tested through their insides (`@testable`); the PostgreSQL
        // tests need the server of `FEEDWORK_TEST_POSTGRES_URL`, and its writer's tests compare it
        // with the SQLite writer.
        .testTarget(
            name: "FeedStoreSQLiteTests",
            dependencies: [
                "FeedKit", "FeedStore", "FeedStoreSQLite", "StoreTestSupport",
                .product(name: "GRDB", package: "GRDB.swift"), .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ]),
        .testTarget(
            name: "FeedStorePostgresTests",
            dependencies: [
                "FeedKit", "FeedStore", "FeedStorePostgres", "FeedStoreSQLite", "FeedTestSupport", "StoreTestSupport",
                .product(name: "GRDB", package: "GRDB.swift"),
            ]),
        // What the drivers' tests share: the system tables as `SystemTables` describes them.
        .target(name: "StoreTestSupport", dependencies: ["FeedStore"], path: "Tests/StoreSupport"),
        .testTarget(
            name: "AdapterTests",
            dependencies: [
                "FeedKit", "FeedEngine", "FeedStoreSQLite", "FeedFixtures", "FeedPricing", "FeedTestSupport",
            ] + adapterTargets,
            exclude: ["Fixtures"]
        ),
        // Caps how many tests run at once in the test process, however `swift test` is called
        // (Tests/Parallelism/Parallelism.c says why); linked through the CLI's tests, which start
        // the most processes.
        .target(name: "TestParallelism", path: "Tests/Parallelism"),
        .testTarget(
            name: "CLITests",
            dependencies: [
                "feedwork", "FeedworkCLI", "FeedworkAdapters", "FeedKit", "FeedEngine", "FeedStoreSQLite",
                "FeedTestSupport", "TestParallelism", .product(name: "GRDB", package: "GRDB.swift"),
            ]),
        .testTarget(
            name: "FeedMCPTests",
            dependencies: ["FeedMCP", "FeedEngine", "FeedKit", "FeedTestSupport", "ClassifiedFeed", "JSONFeed"]),
        .testTarget(
            name: "FeedServerTests",
            dependencies: [
                "FeedServer", "FeedEngine", "FeedKit", "FeedPricing", "FeedMCP", "FeedTestSupport", "ClassifiedFeed",
                "JSONFeed",
                .product(name: "Hummingbird", package: "hummingbird"),
            ]),
    ]
        + builtinAdapters.map { name in
            // The currency adapter writes the rates that pricing reads, and shares their entities.
            .target(
                name: "\(name)Feed", dependencies: ["FeedKit"] + (name == "Currency" ? ["FeedPricing"] : []),
                path: "Adapters/\(name)", exclude: ["Fixtures"] + (name == "JSON" ? ["README.md"] : []))
        },
    swiftLanguageModes: [.v6]
)

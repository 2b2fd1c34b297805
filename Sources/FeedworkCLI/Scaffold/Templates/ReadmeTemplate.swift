/// The scaffold's README.md (what each file is, and the four commands) and its .gitignore.
enum ReadmeTemplate {
    static func text(_ name: AdapterName) -> String {
        ##"""
        # \##(name.name)-feedwork

        Feedwork with one more adapter, `\##(name.name)`: a Swift package whose command, `\##(name.name)-feedwork`, is
        Feedwork's own (every command and option of `feedwork`) with the built-in adapters and this one
        registered. Written by `feedwork new adapter \##(name.name)`.

        - `Package.swift`: the package. The adapter's target, the `\##(name.name)-feedwork` executable and the
          tests, on Feedwork's products `FeedKit`, `FeedworkCLI`, `FeedworkAdapters` and
          `FeedTestSupport`.
        - `Sources/\##(name.typePrefix)Feed/\##(name.typePrefix)Adapter.swift`: the adapter. Its options, its entity `\##(name.name)_item`, and
          a pass: fetch, parse, map, write.
        - `Sources/\##(name.name)-feedwork/main.swift`: the command. `Feedwork.main(adapters:)` with the
          built-in adapters and `\##(name.typePrefix)Adapter`.
        - `feeds.yaml`: a feed of the adapter reading `Fixtures/\##(name.name).json`, so it runs offline.
        - `Fixtures/\##(name.name).json`: a sample response of the API.
        - `Fixtures/recorded/`: a recorded fixture suite. The responses (`responses.json`,
          `responses/`) and the records they must give (`expected/`).
        - `Tests/\##(name.typePrefix)FeedTests/\##(name.typePrefix)AdapterTests.swift`: tests of the adapter against a real HTTP
          server on 127.0.0.1.

        ## The four commands

        ```sh
        swift build                      # the first build compiles Feedwork's libraries too
        swift run \##(name.name)-feedwork run      # loads Fixtures/\##(name.name).json into feeds.sqlite
        swift run \##(name.name)-feedwork test     # replays Fixtures/recorded and compares the records
        swift test                       # the adapter's tests
        ```

        Then `swift run \##(name.name)-feedwork export \##(name.name)_item` prints the rows and `swift run \##(name.name)-feedwork
        adapters` lists \##(name.name) beside the built-in adapters. To read the live API, point the feed's `url`
        at it; `swift run \##(name.name)-feedwork record \##(name.name)` records its responses into `Fixtures/recorded`
        again, and `swift run \##(name.name)-feedwork worker` keeps the feed fresh once it has an `every:` or a `cron:`.

        """##
    }

    /// What git leaves out: the build, and the store that `feedwork run` writes.
    static let gitignore = """
        .build/
        .swiftpm/
        /feeds.sqlite*

        """
}

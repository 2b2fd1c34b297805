import ArgumentParser

/// `feedwork new`: starts something new from a template; `feedwork new adapter NAME` a package
/// with an adapter of one's own.
struct NewCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "new",
        abstract: "Start a new package from a template.",
        discussion: """
            Examples:
              feedwork new adapter acme
              feedwork new adapter my_api --path ~/src/my-api-feedwork
            """,
        subcommands: [NewAdapterCommand.self])
}

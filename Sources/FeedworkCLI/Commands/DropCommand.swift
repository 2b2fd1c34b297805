import ArgumentParser
import FeedEngine
import FeedKit
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// `feedwork drop`: removes an entity (its tables and view) or a feed's rows from the store.
struct DropCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "drop",
        abstract: "Remove an entity (its table, child tables and view) or one feed's rows and state from the store.",
        discussion: """
            An entity the config no longer writes (renamed, or removed) keeps its table and view, \
            which `export --all` lists; `feedwork drop ENTITY` removes them with its `_entities` \
            row and tombstones. `feedwork drop --feed F` removes the rows feed F wrote in every \
            entity, with its state (bookmarks), cached responses, schedule and outbox; its runs \
            and rejects stay as history. `feedwork drop ENTITY --column C` removes a column \
            whose field the config no longer declares (kept, with its values, until then). \
            One transaction: a drop that fails changes nothing. \
            Asks for a confirmation on a terminal; --yes drops without asking (needed when \
            stdin is not a terminal). An entity that another entity's enforced relation points \
            at is refused: drop that one first. Exit status: 0, 1 when there is no store or no \
            such entity or feed, 2 for a config or usage error.

            Examples:
              feedwork drop old_item --yes
              feedwork drop --feed shop
              feedwork drop item --column old_price --yes
            """)

    @OptionGroup var options: ConfigOptions

    @Argument(help: "The entity to drop.", completion: Completions.entities)
    var entity: String?

    @Option(help: "The feed whose rows and state to drop (instead of an entity).")
    var feed: String?

    @Option(help: "Only this column of the entity, one its fields no longer declare.")
    var column: String?

    @Flag(help: "Drop without asking for a confirmation.")
    var yes = false

    func run() async throws {
        let target: DropTarget
        switch (entity, feed, column) {
        case (let entity?, nil, nil): target = .entity(entity)
        case (let entity?, nil, let column?): target = .column(entity: entity, column: column)
        case (nil, let feed?, nil): target = .feed(feed)
        default: throw CommandFailure.usage("name an entity (with --column C for one column) or --feed F")
        }
        let config = try options.load(unsetVariables: .placeholder)
        try ConfigOptions.requireStore(at: config.storeLocation)
        guard try config.storeExists() else { throw CommandFailure.failed("no store at \(config.storeLocation)") }
        if !yes {
            guard isatty(0) == 1 else {
                throw CommandFailure.usage("stdin is not a terminal: add --yes to drop without a confirmation")
            }
            let what =
                switch target {
                case .entity(let name): "entity '\(name)' with its table, rows and view"
                case .feed(let name): "the rows and state of feed '\(name)'"
                case .column(let entity, let column): "column '\(column)' of entity '\(entity)' with its values"
                }
            FileHandle.standardError.write(Data("drop \(what) from \(config.storeLocation)? [y/N] ".utf8))
            guard let answer = readLine(), ["y", "yes"].contains(answer.lowercased()) else {
                throw CommandFailure.failed("nothing was dropped")
            }
        }
        Console.print(try await config.drop(target))
    }
}

import FeedKit

/// One problem found in a config file, with where it is.
public struct ConfigProblem: Sendable, Hashable, CustomStringConvertible {
    public var location: SourceLocation
    public var message: String

    public init(_ message: String, at location: SourceLocation) {
        self.location = location
        self.message = message
    }

    /// `feeds.yaml:12:7: error: unknown key 'urll'...`
    public var description: String { "\(location): error: \(message)" }
}

/// A config file that cannot be used, with every problem found in it.
///
/// The CLI prints each problem on its own line and exits with status 2.
public struct ConfigError: Error, Sendable, CustomStringConvertible {
    public var problems: [ConfigProblem]
    /// The feeds among the problems that name an adapter this program does not register.
    public var unknownAdapters: [UnknownAdapterUse] = []

    public init(_ problems: [ConfigProblem]) { self.problems = problems }

    public init(_ message: String, at location: SourceLocation) { self.init([ConfigProblem(message, at: location)]) }

    public var description: String { problems.map(\.description).joined(separator: "\n") }
}

/// A feed of feeds.yaml naming an adapter the program does not register: built without it, or
/// misspelt.
public struct UnknownAdapterUse: Sendable, Hashable {
    public var feed: String
    public var adapter: String
    /// Where its `adapter:` is.
    public var location: SourceLocation

    public init(feed: String, adapter: String, location: SourceLocation) {
        self.feed = feed
        self.adapter = adapter
        self.location = location
    }
}

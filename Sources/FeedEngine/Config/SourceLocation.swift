import FeedKit
import Yams

/// A place in a config file: `feeds.yaml:12:7`.
public struct SourceLocation: Sendable, Hashable, CustomStringConvertible {
    /// The file's path as the user gave it.
    public var file: String
    /// 1-based line.
    public var line: Int
    /// 1-based column, in Unicode scalars.
    public var column: Int

    public init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }

    init(file: String, mark: Mark?) {
        self.init(file: file, line: mark?.line ?? 1, column: mark?.column ?? 1)
    }

    public var description: String { "\(file):\(line):\(column)" }
}

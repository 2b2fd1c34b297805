import FeedEngine
import FeedKit

/// A fixture suite that cannot be read, written or replayed, with the file or request at fault.
public struct FixtureError: Error, Sendable, CustomStringConvertible {
    public var message: String

    public init(_ message: String) { self.message = message }

    public var description: String { message }
}

import FeedKit

/// Why the store could not be opened, prepared or written.
public struct StoreError: Error, Sendable, CustomStringConvertible {
    /// The store file.
    public var path: String
    public var message: String

    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    /// `error` as a failure of the store at `path`; a ``StoreError`` is kept as it is, so that
    /// its path is not said twice.
    package init(path: String, _ error: any Error) {
        if let error = error as? StoreError {
            self = error
        } else {
            self.init(path: path, message: String(describing: error))
        }
    }

    public var description: String { "\(path): \(message)" }

    /// The store at `path` has migrations this Feedwork does not know: it would misread them.
    package static func newerFeedwork(_ path: String) -> StoreError {
        StoreError(path: path, message: StoreError.newerFeedworkMessage)
    }

    package static let newerFeedworkMessage =
        "the store was written by a newer Feedwork, whose tables this one does not know; use that version or a later one"
}

import FeedKit
import GRDB

/// Why the store could not be opened, prepared or written.
public struct StoreError: Error, Sendable, CustomStringConvertible {
    /// The store file.
    public var path: String
    public var message: String

    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    init(path: String, _ error: any Error) {
        if let error = error as? DatabaseError {
            let reason = error.message ?? "\(error.resultCode)"
            self.init(path: path, message: "SQLite error \(error.resultCode.rawValue): \(reason)")
        } else {
            self.init(path: path, message: String(describing: error))
        }
    }

    public var description: String { "\(path): \(message)" }
}

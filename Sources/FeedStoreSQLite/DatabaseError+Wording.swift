import FeedStore
import GRDB

/// SQLite's errors in a ``StoreError``: the result code and SQLite's reason.
extension DatabaseError: DriverErrorWording {
    package var storeMessage: String {
        "SQLite error \(resultCode.rawValue): \(message ?? "\(resultCode)")"
    }
}

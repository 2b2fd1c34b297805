import FeedStore
import GRDB

extension StoreError {
    /// `error` as a failure of the SQLite store at `path`, SQLite's errors worded for a user by
    /// their result code and SQLite's reason ("SQLite error 26: file is not a database"), not
    /// GRDB's description, which adds the statement and its arguments.
    init(sqlite path: String, _ error: any Error) {
        if let error = error as? DatabaseError {
            self.init(
                path: path,
                message: "SQLite error \(error.resultCode.rawValue): \(error.message ?? "\(error.resultCode)")")
        } else {
            self.init(path: path, error)
        }
    }
}

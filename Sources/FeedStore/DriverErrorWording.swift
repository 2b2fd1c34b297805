/// An error of a driver's database library that the driver words for a user: SQLite's
/// `DatabaseError` reads "SQLite error 26: file is not a database". ``StoreError/init(path:_:)``
/// takes this wording, so shared code (a pass's ``FeedTransaction``) wraps whatever a driver
/// throws without knowing its library, and FeedStore imports none.
package protocol DriverErrorWording: Error {
    /// The error as ``StoreError/message`` says it.
    var storeMessage: String { get }
}

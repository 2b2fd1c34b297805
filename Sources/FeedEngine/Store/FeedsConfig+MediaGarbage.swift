import FeedKit
import FeedStoreDrivers
import Foundation

/// `feedwork gc`: removing mirrored images no row names any more.
extension FeedsConfig {
    /// Removes from the store the images no feed's media URL points at and that were last
    /// fetched longer than `grace` ago (a pass mirroring one right now touches it first, so
    /// it is never taken from under the pass); returns a line for the user.
    ///
    /// A pass forgets the URLs its rows stopped naming, so an image goes once no row of any
    /// feed names a URL of it.
    ///
    /// - Throws: ``StoreError`` when the store cannot be opened or is in use all along.
    public func collectMediaGarbage(grace: FeedDuration, wait: FeedDuration = .seconds(30)) async throws -> String {
        let store = try StoreFactory.writing(storeLocation, wait: wait, redactor: redactor)
        do {
            let (count, bytes) = try await store.collectMediaGarbage(
                olderThan: Date().addingTimeInterval(-grace.seconds))
            try await store.close()
            let size = ByteCountFormatter.string(fromByteCount: Int64(bytes), countStyle: .binary)
            return count == 0 ? "no unreferenced media" : "removed \(count) unreferenced media (\(size))"
        } catch {
            try? await store.close()
            throw error
        }
    }
}

import ClassifiedFeed
import FeedEngine
import FeedFixtures
import FeedKit
import FeedTestSupport
import Foundation

/// A feed of the classified adapter over two files, `categories.json` and `listing.json`.
enum ClassifiedFeedFiles {
    static let registry = AdapterRegistry([ClassifiedAdapter.self])

    static func harness(categories: Data, listing: Data, extra: String = "", driver: HarnessStore = .sqlite) throws
        -> FeedHarness
    {
        try FeedHarness(
            registry: registry,
            yaml: """
                feeds:
                  - name: ads
                    adapter: classified
                    categories_url: categories.json
                    listing_url: listing.json
                    max_reject_ratio: 1  # these suites reject most records on purpose
                \(extra)
                """, files: ["categories.json": categories, "listing.json": listing], store: driver)
    }

    /// A harness over this target's own `classified/` fixtures.
    static func fixtureHarness(
        categories: String = "categories.json", listing: String, driver: HarnessStore = .sqlite
    ) throws -> FeedHarness {
        try harness(
            categories: try TestFixtures.data("classified/\(categories)"),
            listing: try TestFixtures.data("classified/\(listing)"), driver: driver)
    }

    /// A harness over the real recorded payloads.
    static func realHarness() throws -> FeedHarness {
        try harness(
            categories: try RealFixtures.data("classified/categories.json"),
            listing: try RealFixtures.data("classified/listing.json"))
    }
}

extension FeedHarness {
    /// `path: reason` of every stored reject of `entity`, in the order they were stored.
    func rejectReasons(entity: String) async throws -> [String] {
        try await rows("SELECT path, reason FROM _rejects WHERE entity = $1 ORDER BY id", [.text(entity)]).compactMap {
            row in
            if case .text(let path)? = row["path"], case .text(let reason)? = row["reason"] {
                "\(path): \(reason)"
            } else {
                nil
            }
        }
    }

    /// The integer values of `column` over the rows of `sql`.
    func integers(_ sql: String, column: String = "id") async throws -> [Int64] {
        try await rows(sql).compactMap { if case .integer(let value)? = $0[column] { value } else { nil } }
    }
}

/// The real listing parsed independently of the adapter, to derive expected values.
enum RealListing {
    static func ads() throws -> [JSONValue] {
        try JSONParser.parse(try RealFixtures.data("classified/listing.json")).arrayValue ?? []
    }
}

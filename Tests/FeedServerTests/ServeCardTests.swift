import FeedServer
import FeedTestSupport
import Foundation
import Testing

/// The classified ads as cards: the price in the row's currency and the URGENT badge.
@Suite struct ServeCardTests {
    @Test func aCardShowsItsPriceInTheRowsCurrencyAndUrgentAdsABadge() async throws {
        let harness = try await ServedStore.harness(.sqlite)
        try await ServedStore.serve(harness) { client in
            let page = ServedStore.text(try await client.execute(uri: "/entities/classified", method: .get))
            let card = try #require(
                page.components(separatedBy: "<article class=\"card\" data-key=\"").dropFirst().first)
            let key = String(card.prefix { $0 != "\"" })
            let row = try #require(
                try await harness.rows("SELECT price, currency FROM classified WHERE id = \(key)").first)
            #expect(row["currency"] == .text("EUR"))
            guard case .integer(let cents) = row["price"] else { throw CocoaError(.coderValueNotFound) }
            let euros = "€" + String(cents / 100) + "." + String(format: "%02d", cents % 100)
            #expect(card.contains("<p class=\"price\">\(euros)</p>"), "\(card)")
            #expect(card.contains("<span class=\"badge\">URGENT</span>"))
        }
    }
}

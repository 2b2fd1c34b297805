import FeedEngine
import FeedKit
import FeedPricing

extension BasketPricing {
    /// The JSON `feedwork price ITEM... --currency CODE --json` prints, for `items` (`name` or
    /// `name=quantity`) priced with the latest rate `rows` holds.
    ///
    /// - Throws: ``ServeError`` 400 for unknown goods, a bad quantity or code, or a currency the
    ///   stored currency list lacks; 404 when no rate into `currency` is stored.
    func priceJSON(items: [String], currency: String, rows: any StoredRows) async throws(ServeError) -> String {
        do {
            return JSONText.encode(try await price(items: items, currency: currency, rows: rows))
        } catch {
            switch error.kind {
            case .badRequest: throw ServeError(.badRequest, error.message)
            case .notFound: throw ServeError(.notFound, error.message)
            case .unreadable: throw ServeError(.internalServerError, error.message)
            }
        }
    }
}

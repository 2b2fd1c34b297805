import FeedKit

/// Prices a basket as `feedwork price --json` does, for `/api/price` and the basket page.
///
/// The pricing code belongs to the currency adapter's module, which the server does not
/// import: the command that starts the server hands it in.
public protocol BasketPricing: Sendable {
    /// The goods a basket may hold, in catalog order.
    var goods: [BasketGood] { get }
    /// The currency the catalog's prices are in.
    var catalogCurrency: String { get }
    /// The JSON `feedwork price ITEM... --currency CODE --json` prints, for `items` (`name` or
    /// `name=quantity`) priced with the latest rate `rows` holds.
    ///
    /// - Throws: ``ServeError`` 400 for unknown goods, a bad quantity or code, or a currency the
    ///   stored currency list lacks; 404 when no rate into `currency` is stored.
    func price(items: [String], currency: String, rows: any StoredRows) throws(ServeError) -> String
}

/// One good of the catalog, as the basket page lists it.
public struct BasketGood: Sendable, Hashable {
    public var name: String
    public var unit: String
    /// The unit price, an exact decimal, in ``BasketPricing/catalogCurrency``.
    public var price: String

    public init(name: String, unit: String, price: String) {
        self.name = name
        self.unit = unit
        self.price = price
    }
}

import FeedKit
import Foundation

/// Something that can go in a basket: a name, a price per unit and the unit.
public struct Good: Sendable, Hashable {
    public var name: String
    /// The price of one unit, in the catalog's currency.
    public var price: Decimal
    /// What one unit is: `bag`, `dozen`, `bottle`.
    public var unit: String

    public init(name: String, price: Decimal, unit: String) {
        self.name = name
        self.price = price
        self.unit = unit
    }

    /// The price with at least two decimals, and all of its own: `1.30`, `0.955`.
    public var priceText: String {
        let plain = DecimalRounding.plain(price)
        let decimals = plain.split(separator: ".", maxSplits: 1).dropFirst().first?.count ?? 0
        return DecimalRounding.fixed(price, places: max(2, decimals))
    }
}

/// The goods that can be priced, with prices in one currency (USD).
///
/// A catalog file is a YAML mapping of name to price and unit; prices are read from their text,
/// exactly:
///
/// ```yaml
/// Peas: { price: 0.95, unit: bag }
/// Eggs: { price: 2.10, unit: dozen }
/// ```
public struct GoodsCatalog: Sendable, Hashable {
    /// The currency of every price.
    public static let currency = "USD"

    public var goods: [Good]

    public init(goods: [Good]) { self.goods = goods }

    /// Peas 0.95 per bag, Eggs 2.10 per dozen, Milk 1.30 per bottle, Beans 0.73 per can (USD).
    public static let standard = GoodsCatalog(goods: [
        Good(name: "Peas", price: Decimal(95) / 100, unit: "bag"),
        Good(name: "Eggs", price: Decimal(210) / 100, unit: "dozen"),
        Good(name: "Milk", price: Decimal(130) / 100, unit: "bottle"),
        Good(name: "Beans", price: Decimal(73) / 100, unit: "can"),
    ])

    /// The good called `name`, ignoring case.
    public func good(named name: String) -> Good? {
        let wanted = name.lowercased()
        return goods.first { $0.name.lowercased() == wanted }
    }

    /// The names of the goods, in catalog order.
    public var names: [String] { goods.map(\.name) }

    /// A catalog of the goods in a YAML mapping `Tea: { price: 3.45, unit: box }`, decoded by
    /// the caller (`feedwork price --catalog` decodes the file with the config's decoder, so
    /// errors carry `file:line:column`).
    ///
    /// - Throws: ``OptionError`` naming the good when a name is listed twice (names ignore case),
    ///   or when the catalog lists no goods.
    public init(entries: OrderedMapping<Entry>) throws(OptionError) {
        var goods: [Good] = []
        for (name, entry) in entries.entries {
            if goods.contains(where: { $0.name.lowercased() == name.lowercased() }) {
                throw OptionError("'\(name)' is listed twice (names ignore case)", at: [name])
            }
            goods.append(Good(name: name, price: entry.price, unit: entry.unit ?? "unit"))
        }
        guard !goods.isEmpty else { throw OptionError("the catalog lists no goods") }
        self.init(goods: goods)
    }

    /// One good's line of a catalog file; checks its name and price so errors point at it.
    public struct Entry: Decodable, Sendable {
        var price: Decimal
        var unit: String?

        enum CodingKeys: String, CodingKey { case price, unit }

        public init(from decoder: any Decoder) throws {
            let name = decoder.codingPath.last?.stringValue ?? ""
            if name.isEmpty || name.contains(where: { $0.isWhitespace || $0 == "=" }) {
                throw DecodingError.dataCorrupted(
                    DecodingError.Context(
                        codingPath: decoder.codingPath,
                        debugDescription: "'\(name)': a good's name is one word without '='"))
            }
            let container = try decoder.container(keyedBy: CodingKeys.self)
            price = try container.decode(Decimal.self, forKey: .price)
            unit = try container.decodeIfPresent(String.self, forKey: .unit)
            guard price > 0 else {
                throw DecodingError.dataCorruptedError(
                    forKey: .price, in: container, debugDescription: "the price of '\(name)' must be more than 0")
            }
        }
    }
}

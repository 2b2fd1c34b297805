/// What a shopper buys: goods by name with whole quantities, in the order first named.
///
/// Written as `milk eggs=2` on the command line, or one item per line in a file (`#` starts a
/// comment). Naming a good twice adds the quantities.
public struct Basket: Sendable, Hashable {
    public struct Item: Sendable, Hashable {
        /// The name as the shopper wrote it; matched against the catalog ignoring case.
        public var name: String
        public var quantity: Int

        public init(name: String, quantity: Int) {
            self.name = name
            self.quantity = quantity
        }
    }

    /// The most of one good a basket may hold.
    public static let maximumQuantity = 1_000_000

    public private(set) var items: [Item] = []

    public init(items: [Item] = []) {
        for item in items { add(item) }
    }

    public var isEmpty: Bool { items.isEmpty }

    /// Adds `item`, summing with an earlier item of the same name (ignoring case).
    public mutating func add(_ item: Item) {
        if let index = items.firstIndex(where: { $0.name.lowercased() == item.name.lowercased() }) {
            items[index].quantity += item.quantity
        } else {
            items.append(item)
        }
    }

    /// One `name` or `name=quantity` token.
    ///
    /// - Throws: ``BasketError`` for an empty name or a quantity that is not a whole number from 1
    ///   to ``maximumQuantity``.
    public static func item(_ token: String) throws(BasketError) -> Item {
        let parts = token.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        let name = parts[0].trimmingSpaces
        guard !name.isEmpty else {
            throw BasketError(token: token, reason: "an item needs a name, e.g. milk or eggs=2")
        }
        guard parts.count == 2 else { return Item(name: name, quantity: 1) }
        let text = parts[1].trimmingSpaces
        guard let quantity = Int(text), (1...maximumQuantity).contains(quantity) else {
            throw BasketError(
                token: token,
                reason: "the quantity must be a whole number from 1 to \(maximumQuantity), found '\(text)'")
        }
        return Item(name: name, quantity: quantity)
    }

    /// A basket from command-line tokens such as `["milk", "eggs=2"]`.
    public static func parse(arguments: [String]) throws(BasketError) -> Basket {
        var basket = Basket()
        for token in arguments { basket.add(try item(token)) }
        return basket
    }

    /// A basket from a file's text: one item per line, blank lines and `# comments` ignored.
    ///
    /// - Throws: ``BasketError`` naming `file:line`.
    public static func parse(file text: String, named file: String) throws(BasketError) -> Basket {
        var basket = Basket()
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let content = (line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
                .trimmingSpaces
            guard !content.isEmpty else { continue }
            do {
                basket.add(try item(content))
            } catch {
                throw BasketError(token: content, reason: error.reason, location: "\(file):\(index + 1)")
            }
        }
        return basket
    }
}

/// An item of a basket that cannot be read.
public struct BasketError: Error, Sendable, Hashable, CustomStringConvertible {
    public var token: String
    public var reason: String
    /// `file:line` for an item read from a file.
    public var location: String?

    public init(token: String, reason: String, location: String? = nil) {
        self.token = token
        self.reason = reason
        self.location = location
    }

    public var description: String { (location.map { "\($0): " } ?? "") + "'\(token)': \(reason)" }
}

extension StringProtocol {
    fileprivate var trimmingSpaces: String {
        String(drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
    }
}

import FeedKit

/// `schema: { new_columns: evolve|freeze|discard, type_changes: evolve|freeze }` as written in
/// `defaults:` or in a feed; a feed's key wins over the same key of `defaults:`.
struct SchemaContractSpec: Decodable, Sendable, Hashable {
    var newColumns: SchemaContract.NewColumns?
    var typeChanges: SchemaContract.TypeChanges?

    enum CodingKeys: String, CodingKey {
        case newColumns = "new_columns"
        case typeChanges = "type_changes"
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        newColumns = try Self.rule(container, .newColumns)
        typeChanges = try Self.rule(container, .typeChanges)
    }

    private static func rule<Rule: RawRepresentable & CaseIterable>(
        _ container: KeyedDecodingContainer<CodingKeys>, _ key: CodingKeys
    ) throws -> Rule? where Rule.RawValue == String {
        guard let text = try container.decodeIfPresent(String.self, forKey: key) else { return nil }
        guard let rule = Rule(rawValue: text) else {
            let names = Rule.allCases.map(\.rawValue)
            throw DecodingError.dataCorruptedError(
                forKey: key, in: container,
                debugDescription:
                    "\(key.rawValue) must be \(names.dropLast().joined(separator: ", ")) or \(names.last ?? ""), not '\(text)'"
            )
        }
        return rule
    }

    /// The contract of a feed whose own `schema:` is `feed` under `defaults:`'s `schema:`.
    static func contract(feed: SchemaContractSpec?, defaults: SchemaContractSpec?) -> SchemaContract {
        SchemaContract(
            newColumns: feed?.newColumns ?? defaults?.newColumns ?? .evolve,
            typeChanges: feed?.typeChanges ?? defaults?.typeChanges ?? .evolve)
    }
}

/// The name of a new adapter, as `feedwork new adapter NAME` takes it, and the names derived
/// from it: `acme` gives the type `AcmeAdapter` in the module `AcmeFeed`, and `my_api` gives
/// `MyApiAdapter` in `MyApiFeed`.
struct AdapterName: Equatable {
    /// The adapter's name in feeds.yaml (`adapter: acme`): a lowercase identifier.
    let name: String
    /// The name's words capitalized and joined: `Acme`, `MyApi`.
    let typePrefix: String

    /// The longest name taken, so that every derived name stays readable.
    static let maximumLength = 40

    /// Checks `text` and derives the names, or throws a ``CommandFailure`` (status 2) that says
    /// what a name may hold.
    init(_ text: String) throws(CommandFailure) {
        let rule =
            "an adapter name is a lowercase identifier: a letter a-z, then letters, digits or single "
            + "underscores (e.g. acme, my_api), at most \(Self.maximumLength) characters"
        let lettersAndDigits = text.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "_"
        }
        guard let first = text.unicodeScalars.first, ("a"..."z").contains(first), lettersAndDigits,
            text.count <= Self.maximumLength, !text.hasSuffix("_"), !text.contains("__")
        else {
            throw CommandFailure.usage("'\(text)' is not a valid adapter name: \(rule)")
        }
        name = text
        typePrefix = text.split(separator: "_").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }

    /// The adapter's type, `AcmeAdapter`.
    var adapterType: String { typePrefix + "Adapter" }
    /// The adapter's module (and target), `AcmeFeed`.
    var module: String { typePrefix + "Feed" }
    /// The test target, `AcmeFeedTests`.
    var testModule: String { module + "Tests" }
    /// The entity the adapter writes, `acme_item`.
    var entity: String { name + "_item" }
    /// The package's name and its default folder, `acme-feedwork`.
    var packageName: String { name + "-feedwork" }
}

import DestinationFeed
import FeedEngine
import FeedFixtures
import FeedKit

/// Writes the flight rows a feed would have stored on an earlier day (one per destination), so
/// a test can give `no_repeats` a history without waiting for tomorrow; with `legacy: true`,
/// into the one `destination` table of the stores written before deliveries and flight offers
/// had entities of their own.
struct EarlierOffersAdapter: FeedAdapter {
    struct Options: Decodable, Sendable {
        var day: String
        var destinations: [String]
        var legacy: Bool?
    }

    /// The columns of the table before the split that `no_repeats` reads.
    static let legacySchema = EntitySchema(
        name: "destination",
        columns: [
            Column("kind", .text, nullable: false), Column("id", .text, nullable: false),
            Column("destination_city_code", .text), Column("destination_airport", .text), Column("rank", .integer),
            Column("offer_date", .text),
        ], key: ["kind", "id"])

    static let description = AdapterDescription(
        name: "earlier-offers", summary: "Flight rows of an earlier day, for tests.", options: [],
        entities: [DestinationAdapter.flightOfferSchema, legacySchema])

    let options: Options

    init(options: Options, feed: FeedSetup) { self.options = options }

    var entities: [EntityBinding] {
        [EntityBinding(options.legacy == true ? Self.legacySchema : DestinationAdapter.flightOfferSchema)]
    }

    func run(_ pass: FeedPass) async throws {
        let legacy = options.legacy == true
        let records = try options.destinations.enumerated().map { index, code in
            var fields: [String: FieldValue] = [
                "id": .text("\(options.day)_\(index)"), "destination_city_code": .text(code),
                "destination_airport": .text(code), "rank": .integer(Int64(index + 1)),
                "offer_date": .text(options.day),
            ]
            if legacy { fields["kind"] = .text("flight") }
            return try EntityRecord(
                schema: legacy ? Self.legacySchema : DestinationAdapter.flightOfferSchema, fields: fields)
        }
        try await pass.write(RecordBatch(records: records))
    }
}

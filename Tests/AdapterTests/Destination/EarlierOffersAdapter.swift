import DestinationFeed
import FeedEngine
import FeedFixtures
import FeedKit

/// Writes the flight rows a feed would have stored on an earlier day (one per destination), so
/// a test can give `no_repeats` a history without waiting for tomorrow.
struct EarlierOffersAdapter: FeedAdapter {
    struct Options: Decodable, Sendable {
        var day: String
        var destinations: [String]
    }

    static let description = AdapterDescription(
        name: "earlier-offers", summary: "Flight rows of an earlier day, for tests.", options: [],
        entities: [DestinationAdapter.schema])

    let options: Options

    init(options: Options, feed: FeedSetup) { self.options = options }

    func run(_ pass: FeedPass) async throws {
        let records = try options.destinations.enumerated().map { index, code in
            try EntityRecord(
                schema: DestinationAdapter.schema,
                fields: [
                    "kind": .text("flight"), "id": .text("\(options.day)_\(index)"),
                    "destination_city_code": .text(code), "destination_airport": .text(code),
                    "rank": .integer(Int64(index + 1)), "offer_date": .text(options.day),
                ])
        }
        try await pass.write(RecordBatch(records: records))
    }
}

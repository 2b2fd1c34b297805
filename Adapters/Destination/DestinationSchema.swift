import FeedKit

/// The entities of the `destination` adapter, one per source, each with only its own columns:
/// `delivery` (a delivery's drop-off) and `flight_offer` (a day's ranked flight offer).
///
/// Stores written before the split hold both in one sparse table `destination` keyed by
/// `kind` and `id`; that table is left as it is and receives no more rows.
enum DestinationSchema {
    static let delivery = EntitySchema(
        name: "delivery",
        columns: [
            Column("id", .integer, nullable: false, summary: "the delivery's id (key)"),
            Column("description", .text, summary: "what is delivered", role: .title),
            Column("image_url", .text, summary: "a picture of the delivery", role: .image, media: true),
            Column("latitude", .real, summary: "where to deliver, in degrees"),
            Column("longitude", .real, summary: "where to deliver, in degrees"),
            Column("address", .text, summary: "where to deliver"),
        ],
        key: ["id"],
        summary: "A delivery's drop-off.")

    static let flightOffer = EntitySchema(
        name: "flight_offer",
        columns: [
            Column("id", .text, nullable: false, summary: "the offer's id (key)"),
            Column("offer_date", .text, summary: "the UTC day (yyyy-MM-dd) the offer was listed"),
            Column("rank", .integer, summary: "1 for the day's first offer, in the API's order"),
            Column("destination_city", .text, summary: "the city of arrival", role: .title),
            Column("destination_country", .text, summary: "the country of arrival"),
            Column("destination_city_code", .text, summary: "the IATA code of the city of arrival"),
            Column("destination_airport", .text, summary: "the IATA code of the airport of arrival"),
            Column("image_url", .text, summary: "a picture of the destination", role: .image, media: true),
            Column("latitude", .real, summary: "the airport of arrival, in degrees"),
            Column("longitude", .real, summary: "the airport of arrival, in degrees"),
            Column("origin_city", .text, summary: "the city of departure"),
            Column("origin_city_code", .text, summary: "the IATA code of the city of departure"),
            Column("origin_airport", .text, summary: "the IATA code of the airport of departure"),
            Column("price", .integer, summary: "the price in minor units of currency", role: .money),
            Column("currency", .text, summary: "ISO 4217 code of the price"),
            Column("departure_at", .timestamp, summary: "departure, UTC"),
            Column("arrival_at", .timestamp, summary: "arrival, UTC"),
            Column("duration_seconds", .integer, summary: "arrival minus departure, in seconds"),
            Column("duration_text", .text, summary: "the duration as the API wrote it, e.g. 1h 10m"),
            Column("booking_url", .text, summary: "where to buy the ticket", role: .link),
        ],
        key: ["id"],
        order: [.descending("offer_date"), .ascending("rank"), .ascending("id")],
        summary: "A flight offer of the day, ranked in the API's order.")

    /// The one table of both sources in stores written before the split; `no_repeats` still
    /// reads the flights it holds, so an upgrade does not offer those destinations again.
    static let legacyEntity = "destination"
}

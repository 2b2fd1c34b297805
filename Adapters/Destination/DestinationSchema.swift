import FeedKit

/// The one entity both sources write: a place to go, either a delivery's drop-off or a flight's
/// destination. Rows are keyed by `kind` and `id`, so a delivery `7` and a flight offer `7` never
/// collide.
enum DestinationSchema {
    /// `kind` of a delivery row.
    static let deliveryKind = "delivery"
    /// `kind` of a flight offer row.
    static let flightKind = "flight"

    static let entity = EntitySchema(
        name: "destination",
        columns: [
            Column("kind", .text, nullable: false, summary: "delivery or flight (key, with id)"),
            Column(
                "id", .text, nullable: false, summary: "the delivery's id or the flight offer's id (key, with kind)"),
            Column("title", .text, summary: "the delivery's description, or the flight's destination city"),
            Column("image_url", .text, summary: "a picture of the delivery or of the destination"),
            Column("latitude", .real, summary: "where to go, in degrees"),
            Column("longitude", .real, summary: "where to go, in degrees"),
            Column("address", .text, summary: "the delivery's address, or the destination's city and country"),
            Column("origin_city", .text, summary: "flight: the city of departure"),
            Column("origin_city_code", .text, summary: "flight: the IATA code of the city of departure"),
            Column("origin_airport", .text, summary: "flight: the IATA code of the airport of departure"),
            Column("destination_city", .text, summary: "flight: the city of arrival"),
            Column("destination_city_code", .text, summary: "flight: the IATA code of the city of arrival"),
            Column("destination_airport", .text, summary: "flight: the IATA code of the airport of arrival"),
            Column("price", .integer, summary: "flight: the price in minor units of currency"),
            Column("currency", .text, summary: "flight: ISO 4217 code of the price"),
            Column("departure_at", .timestamp, summary: "flight: departure, UTC"),
            Column("arrival_at", .timestamp, summary: "flight: arrival, UTC"),
            Column("duration_seconds", .integer, summary: "flight: arrival minus departure, in seconds"),
            Column("duration_text", .text, summary: "flight: the duration as the API wrote it, e.g. 1h 10m"),
            Column("booking_url", .text, summary: "flight: where to buy the ticket"),
            Column("rank", .integer, summary: "flight: 1 for the day's first offer, in the API's order"),
            Column("offer_date", .text, summary: "flight: the UTC day (yyyy-MM-dd) the offer was listed"),
        ],
        key: ["kind", "id"],
        order: [.ascending("kind"), .descending("offer_date"), .ascending("rank"), .ascending("id")],
        summary: "A delivery drop-off or a flight offer's destination.")
}

import FeedKit
import Foundation

/// Parse, map and selection of a flight search response (`{"currency","data":[offer]}`), free
/// of I/O so it can be tested on its own.
enum FlightMapping {
    /// A response's offers, in the API's order, and the currency of their prices.
    struct SearchResult {
        var currency: String
        var offers: [JSONValue]
    }

    /// One offer, mapped except for its rank.
    struct Offer {
        var fields: [String: FieldValue]
        /// What "the same destination" means for `no_repeats`: the city code, else the airport.
        var destination: String
    }

    /// The day's list: at most `top` records ranked from 1, and what was left out.
    struct Selection {
        var records: [EntityRecord] = []
        var rejects: [Reject] = []
        /// Destinations of offers passed over because they were offered before.
        var repeated: [String] = []
    }

    /// Reads the `currency` and the `data` list of a response.
    ///
    /// - Throws: ``PayloadError`` when the body is not JSON, has no list of offers, or no currency.
    static func parse(response: FetchResponse, feed: String) throws -> SearchResult {
        let document = try response.json(feed: feed)
        let url = response.url
        guard let offers = document["data"]?.arrayValue else {
            throw PayloadError(
                feed: feed, url: url, path: "$.data",
                message: "expected a list of offers, found \(document["data"]?.kindName ?? "nothing")")
        }
        guard let code = document["currency"]?.stringValue, Money.isCurrencyCode(code) else {
            throw PayloadError(
                feed: feed, url: url, path: "$.currency",
                message: "expected an ISO 4217 currency code, found \(document["currency"].map(describe) ?? "nothing")")
        }
        return SearchResult(currency: code.uppercased(), offers: offers)
    }

    /// Takes offers in the API's order until `top` are kept, ranking them from 1.
    ///
    /// Offers that cannot be mapped are rejected and do not take a rank. With `excluding` (the
    /// `no_repeats` option), offers to a destination in it, or to one already kept today, are
    /// passed over.
    static func select(
        _ result: SearchResult, top: Int, offerDate: String, imageTemplate: ImageTemplate,
        excluding earlier: Set<String>?
    ) -> Selection {
        var selection = Selection()
        var kept: Set<String> = []
        for (index, item) in result.offers.enumerated() {
            guard selection.records.count < top else { break }
            let offer: Offer
            switch map(item, currency: result.currency, imageTemplate: imageTemplate) {
            case .success(let mapped):
                offer = mapped
            case .failure(let error):
                selection.rejects.append(
                    Reject(entity: DestinationSchema.flightOffer.name, item: item, at: "$.data[\(index)]", error: error)
                )
                continue
            }
            if let earlier, earlier.contains(offer.destination) || kept.contains(offer.destination) {
                selection.repeated.append(offer.destination)
                continue
            }
            var fields = offer.fields
            fields["rank"] = .integer(Int64(selection.records.count + 1))
            fields["offer_date"] = .text(offerDate)
            do {
                selection.records.append(try EntityRecord(schema: DestinationSchema.flightOffer, fields: fields))
                kept.insert(offer.destination)
            } catch {
                selection.rejects.append(
                    Reject(
                        entity: DestinationSchema.flightOffer.name, reason: String(describing: error),
                        path: "$.data[\(index)]", raw: item.jsonText))
            }
        }
        return selection
    }

    /// Maps one offer. Required: `id`, `flyTo`, `price`, `dTimeUTC` and `aTimeUTC`.
    static func map(_ item: JSONValue, currency: String, imageTemplate: ImageTemplate) -> Result<Offer, RecordError> {
        guard item.objectValue != nil else {
            return .failure(RecordError(reason: "expected an object, found \(item.kindName)"))
        }
        do throws(RecordError) {
            let id = try Fields.requiredString(item["id"], field: "id")
            let airport = try Fields.requiredString(item["flyTo"], field: "flyTo")
            let cityCode = try Fields.optionalString(item["cityCodeTo"], field: "cityCodeTo")
            let price = try minorUnits(item["price"], currency: currency)
            let departure = try Fields.requiredWholeNumber(item["dTimeUTC"], field: "dTimeUTC")
            let arrival = try Fields.requiredWholeNumber(item["aTimeUTC"], field: "aTimeUTC")
            guard arrival >= departure else {
                throw RecordError(field: "aTimeUTC", reason: "arrival \(arrival) is before departure \(departure)")
            }
            let city = try Fields.optionalString(item["cityTo"], field: "cityTo")
            let country = try Fields.optionalString(item["countryTo"]?["name"], field: "countryTo.name")
            // The last leg lands at the destination; the offer itself has no coordinates.
            let lastLeg = item["route"]?.arrayValue?.last
            let fields: [String: FieldValue] = [
                "id": .text(id),
                "image_url": .text(imageTemplate.render(item)),
                "latitude": .real(try Fields.optionalDouble(lastLeg?["latTo"], field: "route[-1].latTo")),
                "longitude": .real(try Fields.optionalDouble(lastLeg?["lngTo"], field: "route[-1].lngTo")),
                "destination_country": .text(country),
                "origin_city": .text(try Fields.optionalString(item["cityFrom"], field: "cityFrom")),
                "origin_city_code": .text(try Fields.optionalString(item["cityCodeFrom"], field: "cityCodeFrom")),
                "origin_airport": .text(try Fields.optionalString(item["flyFrom"], field: "flyFrom")),
                "destination_city": .text(city),
                "destination_city_code": .text(cityCode),
                "destination_airport": .text(airport),
                "price": .integer(price),
                "currency": .text(currency),
                "departure_at": .text(CivilTime(unixSeconds: departure).iso8601),
                "arrival_at": .text(CivilTime(unixSeconds: arrival).iso8601),
                "duration_seconds": .integer(arrival - departure),
                "duration_text": .text(try Fields.optionalString(item["fly_duration"], field: "fly_duration")),
                "booking_url": .text(try Fields.optionalString(item["deep_link"], field: "deep_link")),
            ]
            return .success(Offer(fields: fields, destination: cityCode ?? airport))
        } catch {
            return .failure(error)
        }
    }

    /// The price in minor units of `currency`, exactly: `12` EUR is 1200, `12.5` is 1250.
    static func minorUnits(_ value: JSONValue?, currency: String) throws(RecordError) -> Int64 {
        guard let value, !value.isNull else { throw RecordError(field: "price", reason: "price is missing or null") }
        guard let text = value.numberText, let decimal = ExactDecimal(text) else {
            throw RecordError(field: "price", reason: "price must be a number, found \(value.kindName)")
        }
        guard !decimal.isNegative else {
            throw RecordError(field: "price", reason: "price must not be negative, found \(text)")
        }
        guard let minor = decimal.minorUnits(scale: Money.exponent(of: currency)) else {
            throw RecordError(
                field: "price",
                reason:
                    "price \(text) is not a whole number of \(currency) minor units (\(Money.exponent(of: currency)) decimals)"
            )
        }
        return minor
    }

    /// The UTC day of `date` as `yyyy-MM-dd`.
    static func day(of date: Date) -> String {
        let iso = CivilTime(unixSeconds: Int64(date.timeIntervalSince1970.rounded(.down))).iso8601
        return String(iso.prefix(10))
    }

    private static func describe(_ value: JSONValue) -> String {
        value.stringValue.map { "'\($0)'" } ?? value.kindName
    }
}

import FeedKit

/// Maps the ads listing, kept free of I/O so it can be tested on its own.
enum ListingMapping {
    /// Maps each item of the list at `$`; bad items, and ads whose category is not in
    /// `categories`, become rejects of entity `classified`.
    static func map(_ items: [JSONValue], categories: Set<Int64>, currency: String) -> RecordBatch {
        var batch = RecordBatch()
        for (index, item) in items.enumerated() {
            let path = "$[\(index)]"
            do throws(RecordError) {
                batch.records.append(try record(item, categories: categories, currency: currency))
            } catch {
                batch.rejects.append(
                    Reject(entity: ClassifiedSchema.classified.name, item: item, at: path, error: error))
            }
        }
        return batch
    }

    static func record(_ item: JSONValue, categories: Set<Int64>, currency: String) throws(RecordError) -> EntityRecord
    {
        let fields = try ItemFields(item)
        let id = try fields.wholeNumber("id")
        let categoryID = try fields.wholeNumber("category_id")
        guard categories.contains(categoryID) else {
            throw RecordError(
                field: "category_id", reason: "unknown category \(categoryID): not in this pass's categories")
        }
        let title = try fields.string("title")
        let description = try fields.optionalString("description")
        let price = try self.price(fields, currency: currency)
        let images = try self.images(fields)
        let createdAt = try self.createdAt(fields)
        let isUrgent = try fields.bool("is_urgent")
        let siret = try fields.optionalString("siret")
        let values: [String: FieldValue] = [
            "id": .integer(id), "category_id": .integer(categoryID), "title": .text(title),
            "description": .text(description), "price": .integer(price), "currency": .text(currency),
            "image_small": .text(images.small), "image_thumb": .text(images.thumb),
            "created_at": .text(createdAt), "is_urgent": .bool(isUrgent), "siret": .text(siret),
        ]
        do {
            return try EntityRecord(schema: ClassifiedSchema.classified, fields: values)
        } catch {
            throw RecordError(field: nil, reason: String(describing: error))
        }
    }

    /// The price in minor units of `currency`, read from the number's text (never a `Double`).
    static func price(_ fields: ItemFields, currency: String) throws(RecordError) -> Int64 {
        let value = try fields.present("price")
        guard let text = value.numberText, let decimal = ExactDecimal(text) else {
            throw RecordError(field: "price", reason: "price must be a number, found \(value.kindName)")
        }
        guard !decimal.isNegative else {
            throw RecordError(field: "price", reason: "price must not be negative, found \(text)")
        }
        let exponent = Money.exponent(of: currency)
        guard let minorUnits = decimal.minorUnits(scale: exponent) else {
            if decimal.exponent + exponent < 0 {
                throw RecordError(
                    field: "price", reason: "price \(text) has more than \(exponent) decimals, too many for \(currency)"
                )
            }
            throw RecordError(field: "price", reason: "price \(text.prefix(40)) is too large")
        }
        return minorUnits
    }

    /// The small and thumb image URLs; `images_url` may be absent, `null` or `{}`.
    static func images(_ fields: ItemFields) throws(RecordError) -> (small: String?, thumb: String?) {
        guard let value = fields.object["images_url"], !value.isNull else { return (nil, nil) }
        guard case .object = value else {
            throw RecordError(field: "images_url", reason: "images_url must be an object, found \(value.kindName)")
        }
        let images = try ItemFields(value)
        do throws(RecordError) {
            return (try images.optionalString("small"), try images.optionalString("thumb"))
        } catch {
            throw RecordError(field: "images_url.\(error.field ?? "")", reason: "images_url.\(error.reason)")
        }
    }

    /// `creation_date` as a UTC ISO 8601 timestamp; `+0000` offsets (no colon) are accepted.
    static func createdAt(_ fields: ItemFields) throws(RecordError) -> String {
        let text = try fields.string("creation_date")
        guard let timestamp = ISO8601.normalized(text) else {
            throw RecordError(
                field: "creation_date", reason: "creation_date is not an ISO 8601 date-time: '\(text.prefix(60))'")
        }
        return timestamp
    }
}

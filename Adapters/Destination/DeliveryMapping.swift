import FeedKit
import Foundation

/// Parse and map of one page of deliveries (`[{"id","description","imageUrl","location"}]`),
/// free of I/O so it can be tested on its own.
///
/// Only `id` is required; `description`, `imageUrl`, `location` and the location's `lat`, `lng`
/// and `address` may each be absent or `null`. A value of the wrong type rejects the record.
enum DeliveryMapping {
    /// Maps a page body to delivery records; items that are not valid deliveries become rejects.
    ///
    /// - Throws: ``PayloadError`` when the body is not JSON or not a list.
    static func map(response: FetchResponse, feed: String) throws -> RecordBatch {
        let document = try response.json(feed: feed)
        let url = response.url
        guard let items = document.arrayValue else {
            throw PayloadError(
                feed: feed, url: url, path: "$", message: "expected a list of deliveries, found \(document.kindName)")
        }
        var page = RecordBatch()
        for (index, item) in items.enumerated() {
            switch record(item) {
            case .success(let record):
                page.records.append(record)
            case .failure(let error):
                page.rejects.append(
                    Reject(entity: DestinationSchema.delivery.name, item: item, at: "$[\(index)]", error: error))
            }
        }
        return page
    }

    /// One delivery's record.
    static func record(_ item: JSONValue) -> Result<EntityRecord, RecordError> {
        guard let object = item.objectValue else {
            return .failure(RecordError(reason: "expected an object, found \(item.kindName)"))
        }
        do {
            let id = try Fields.requiredWholeNumber(object["id"], field: "id")
            let location = try Fields.optionalObject(object["location"], field: "location")
            let fields: [String: FieldValue] = [
                "id": .integer(id),
                "description": .text(try Fields.optionalString(object["description"], field: "description")),
                "image_url": .text(try Fields.optionalString(object["imageUrl"], field: "imageUrl")),
                "latitude": .real(try Fields.optionalDouble(location?["lat"], field: "location.lat")),
                "longitude": .real(try Fields.optionalDouble(location?["lng"], field: "location.lng")),
                "address": .text(try Fields.optionalString(location?["address"], field: "location.address")),
            ]
            return .success(try EntityRecord(schema: DestinationSchema.delivery, fields: fields))
        } catch let error as RecordError {
            return .failure(error)
        } catch {
            return .failure(RecordError(reason: String(describing: error)))
        }
    }
}

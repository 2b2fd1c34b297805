import FeedKit

/// Parse and map of the fruit list, kept free of I/O so it can be tested on its own.
enum FruitMapping {
    /// Maps a response body to fruit records; bad items become rejects.
    ///
    /// - Throws: ``PayloadError`` when the body is not JSON or has no `fruit` list.
    static func map(response: FetchResponse, currency: String, feed: String) throws -> RecordBatch {
        let document = try response.json(feed: feed)
        guard let items = document["fruit"]?.arrayValue else {
            throw PayloadError(
                feed: feed, url: response.url, path: "$.fruit",
                message: "expected a list of fruit, found \(document["fruit"]?.kindName ?? "nothing")")
        }
        var result = RecordBatch()
        for (index, item) in items.enumerated() {
            let path = "$.fruit[\(index)]"
            switch record(item, currency: currency) {
            case .success(let record):
                result.records.append(record)
            case .failure(let error):
                result.rejects.append(Reject(entity: "fruit", item: item, at: path, error: error))
            }
        }
        return result
    }

    static func record(_ item: JSONValue, currency: String) -> Swift.Result<EntityRecord, RecordError> {
        guard case .object = item else {
            return .failure(RecordError(reason: "expected an object, found \(item.kindName)"))
        }
        guard let rawType = item["type"]?.stringValue else {
            return .failure(RecordError(field: "type", reason: "type is missing or not a string"))
        }
        let type = rawType.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        guard !type.isEmpty else { return .failure(RecordError(field: "type", reason: "type is empty")) }
        let price: Int64
        let weight: Int64
        switch wholeNumber(item["price"], name: "price") {
        case .success(let value): price = value
        case .failure(let error): return .failure(error)
        }
        switch wholeNumber(item["weight"], name: "weight") {
        case .success(let value): weight = value
        case .failure(let error): return .failure(error)
        }
        let fields: [String: FieldValue] = [
            "type": .text(type), "price": .integer(price), "currency": .text(currency), "weight": .integer(weight),
            "price_display": .text(Money.display(minorUnits: price, currency: currency)),
            "weight_display": .text(ExactDecimal("\(weight)e-3").map { "\($0) kg" } ?? ""),
        ]
        do {
            return .success(try EntityRecord(schema: FruitAdapter.schema, fields: fields))
        } catch {
            return .failure(RecordError(reason: String(describing: error)))
        }
    }

    private static func wholeNumber(_ value: JSONValue?, name: String) -> Swift.Result<Int64, RecordError> {
        guard let value, !value.isNull else { return .failure(RecordError(field: name, reason: "\(name) is missing")) }
        guard let text = value.numberText else {
            return .failure(RecordError(field: name, reason: "\(name) must be a whole number, found \(value.kindName)"))
        }
        guard let number = value.int64Value else {
            return .failure(RecordError(field: name, reason: "\(name) must be a whole number, found \(text)"))
        }
        guard number >= 0 else {
            return .failure(RecordError(field: name, reason: "\(name) must not be negative, found \(text)"))
        }
        return .success(number)
    }
}

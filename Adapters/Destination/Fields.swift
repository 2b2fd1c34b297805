import FeedKit

/// Readers of optional fields: absent and `null` are `nil`, a value of another type is an error.
enum Fields {
    static func optionalString(_ value: JSONValue?, field: String) throws(RecordError) -> String? {
        guard let value, !value.isNull else { return nil }
        guard let text = value.stringValue else {
            throw RecordError(field: field, reason: "\(field) must be a string, found \(value.kindName)")
        }
        return text
    }

    static func optionalDouble(_ value: JSONValue?, field: String) throws(RecordError) -> Double? {
        guard let value, !value.isNull else { return nil }
        guard let number = value.doubleValue else {
            throw RecordError(field: field, reason: "\(field) must be a number, found \(value.kindName)")
        }
        return number
    }

    static func optionalObject(_ value: JSONValue?, field: String) throws(RecordError) -> JSONValue? {
        guard let value, !value.isNull else { return nil }
        guard value.objectValue != nil else {
            throw RecordError(field: field, reason: "\(field) must be an object, found \(value.kindName)")
        }
        return value
    }

    static func requiredString(_ value: JSONValue?, field: String) throws(RecordError) -> String {
        guard let text = try optionalString(value, field: field) else {
            throw RecordError(field: field, reason: "\(field) is missing or null")
        }
        guard !text.isEmpty else { throw RecordError(field: field, reason: "\(field) is empty") }
        return text
    }

    static func requiredWholeNumber(_ value: JSONValue?, field: String) throws(RecordError) -> Int64 {
        guard let value, !value.isNull else { throw RecordError(field: field, reason: "\(field) is missing or null") }
        guard let number = value.int64Value else {
            throw RecordError(
                field: field, reason: "\(field) must be a whole number, found \(value.numberText ?? value.kindName)")
        }
        return number
    }
}

import FeedKit

/// Why one record of a payload cannot be stored: the field (a path below the record) and a reason.
struct FieldError: Error {
    var field: String?
    var reason: String

    init(field: String? = nil, reason: String) {
        self.field = field
        self.reason = reason
    }
}

/// Readers of optional fields: absent and `null` are `nil`, a value of another type is an error.
enum Fields {
    static func optionalString(_ value: JSONValue?, field: String) throws(FieldError) -> String? {
        guard let value, !value.isNull else { return nil }
        guard let text = value.stringValue else {
            throw FieldError(field: field, reason: "\(field) must be a string, found \(value.kindName)")
        }
        return text
    }

    static func optionalDouble(_ value: JSONValue?, field: String) throws(FieldError) -> Double? {
        guard let value, !value.isNull else { return nil }
        guard let number = value.doubleValue else {
            throw FieldError(field: field, reason: "\(field) must be a number, found \(value.kindName)")
        }
        return number
    }

    static func optionalObject(_ value: JSONValue?, field: String) throws(FieldError) -> JSONValue? {
        guard let value, !value.isNull else { return nil }
        guard value.objectValue != nil else {
            throw FieldError(field: field, reason: "\(field) must be an object, found \(value.kindName)")
        }
        return value
    }

    static func requiredString(_ value: JSONValue?, field: String) throws(FieldError) -> String {
        guard let text = try optionalString(value, field: field) else {
            throw FieldError(field: field, reason: "\(field) is missing or null")
        }
        guard !text.isEmpty else { throw FieldError(field: field, reason: "\(field) is empty") }
        return text
    }

    static func requiredWholeNumber(_ value: JSONValue?, field: String) throws(FieldError) -> Int64 {
        guard let value, !value.isNull else { throw FieldError(field: field, reason: "\(field) is missing or null") }
        guard let number = value.int64Value else {
            throw FieldError(
                field: field, reason: "\(field) must be a whole number, found \(value.numberText ?? value.kindName)")
        }
        return number
    }
}

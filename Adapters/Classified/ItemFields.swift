import FeedKit

/// Typed reads of one JSON object's fields, each failing with the field's name and a reason.
struct ItemFields {
    let object: JSONObject

    /// The fields of `item`, which must be an object.
    init(_ item: JSONValue) throws(RecordError) {
        guard let object = item.objectValue else {
            throw RecordError(field: nil, reason: "expected an object, found \(item.kindName)")
        }
        self.object = object
    }

    /// A value that is neither absent nor `null`.
    func present(_ name: String) throws(RecordError) -> JSONValue {
        guard let value = object[name], !value.isNull else {
            throw RecordError(field: name, reason: "\(name) is missing")
        }
        return value
    }

    /// A whole number that fits in 64 bits (an id).
    func wholeNumber(_ name: String) throws(RecordError) -> Int64 {
        let value = try present(name)
        guard let text = value.numberText else {
            throw RecordError(field: name, reason: "\(name) must be a whole number, found \(value.kindName)")
        }
        guard let number = value.int64Value else {
            throw RecordError(
                field: name, reason: "\(name) must be a whole number within the 64-bit range, found \(text.prefix(40))")
        }
        return number
    }

    /// A string.
    func string(_ name: String) throws(RecordError) -> String {
        let value = try present(name)
        guard let text = value.stringValue else {
            throw RecordError(field: name, reason: "\(name) must be a string, found \(value.kindName)")
        }
        return text
    }

    /// A string, or `nil` when the field is absent or `null`.
    func optionalString(_ name: String) throws(RecordError) -> String? {
        guard let value = object[name], !value.isNull else { return nil }
        return try string(name)
    }

    /// `true` or `false`.
    func bool(_ name: String) throws(RecordError) -> Bool {
        let value = try present(name)
        guard let flag = value.boolValue else {
            throw RecordError(field: name, reason: "\(name) must be true or false, found \(value.kindName)")
        }
        return flag
    }
}

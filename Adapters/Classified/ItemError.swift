import FeedKit

/// Why one item of a response cannot be stored: the field at fault (if one) and a reason.
struct ItemError: Error {
    var field: String?
    var reason: String

    init(_ field: String?, _ reason: String) {
        self.field = field
        self.reason = reason
    }

    /// A reject of `item` found at `path` (the item's path; the field is appended).
    func reject(entity: String, item: JSONValue, at path: String) -> Reject {
        Reject(entity: entity, reason: reason, path: path + (field.map { ".\($0)" } ?? ""), raw: item.jsonText)
    }
}

import FeedCore

/// The records, rejects and report notes mapped from one response.
///
/// Records are unique by key: a later record with a key already seen replaces the earlier one
/// and leaves a note.
struct MappedBatch {
    private var slots: [EntityRecord?] = []
    private var positions: [String: Int] = [:]
    private(set) var rejects: [Reject] = []
    private(set) var notes: [String] = []

    /// The kept records in response order; a replaced record leaves no trace.
    var records: [EntityRecord] { slots.compactMap { $0 } }

    /// Adds `record`, found at `path`; a duplicate key replaces the earlier record.
    mutating func add(_ record: EntityRecord, at path: String) {
        if let earlier = positions[record.key] {
            slots[earlier] = nil
            notes.append("duplicate \(record.entity) id \(record.key) at \(path); the last one wins")
        }
        positions[record.key] = slots.count
        slots.append(record)
    }

    mutating func reject(_ reject: Reject) { rejects.append(reject) }
}

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

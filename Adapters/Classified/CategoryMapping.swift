import FeedKit
import Foundation

/// Maps the categories list `[{"id","name"}]`, kept free of I/O so it can be tested on its own.
enum CategoryMapping {
    struct Result {
        var batch: RecordBatch
        /// The ids of the categories that will be stored, for the ads' mandatory relation.
        var ids: Set<Int64>
    }

    /// Maps each item of the list at `$`; bad items become rejects of entity `category`.
    static func map(_ items: [JSONValue]) -> Result {
        var batch = RecordBatch()
        var ids: Set<Int64> = []
        for (index, item) in items.enumerated() {
            let path = "$[\(index)]"
            do throws(RecordError) {
                let (id, record) = try self.record(item)
                batch.records.append(record)
                ids.insert(id)
            } catch {
                batch.rejects.append(Reject(entity: ClassifiedSchema.category.name, item: item, at: path, error: error))
            }
        }
        return Result(batch: batch, ids: ids)
    }

    static func record(_ item: JSONValue) throws(RecordError) -> (id: Int64, record: EntityRecord) {
        let fields = try ItemFields(item)
        let id = try fields.wholeNumber("id")
        let name = try fields.string("name").trimmingCharacters(in: .whitespacesAndNewlines)
        guard !name.isEmpty else { throw RecordError(field: "name", reason: "name is empty") }
        do {
            let record = try EntityRecord(
                schema: ClassifiedSchema.category, fields: ["id": .integer(id), "name": .text(name)])
            return (id, record)
        } catch {
            throw RecordError(field: nil, reason: String(describing: error))
        }
    }
}

/// What an adapter made of one response (or one page): records to write, records it rejected,
/// and notes for the feed's report. Written with ``FeedPass/write(_:)``.
///
/// Mapping functions return one, so they stay pure and can be tested without a pass:
///
/// ```swift
/// var batch = RecordBatch()
/// for (index, item) in items.enumerated() {
///     do { batch.records.append(try record(for: item)) }
///     catch { batch.rejects.append(Reject(entity: "item", reason: "\(error)", path: "$[\(index)]", raw: item.text)) }
/// }
/// ```
public struct RecordBatch: Sendable, Hashable {
    public var records: [EntityRecord]
    public var rejects: [Reject]
    /// Lines for the feed's report, such as "3 of 5 offers kept".
    public var notes: [String]

    public init(records: [EntityRecord] = [], rejects: [Reject] = [], notes: [String] = []) {
        self.records = records
        self.rejects = rejects
        self.notes = notes
    }

    /// Adds `other`'s records, rejects and notes after this batch's.
    public mutating func append(_ other: RecordBatch) {
        records += other.records
        rejects += other.rejects
        notes += other.notes
    }
}

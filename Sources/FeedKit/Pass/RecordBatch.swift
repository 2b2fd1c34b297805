/// What an adapter made of one response (or one page): records to write, records it rejected,
/// notes for the feed's report, and the response it came from. Written with
/// ``FeedPass/write(_:)``.
///
/// Mapping functions return one, so they stay pure and can be tested without a pass:
///
/// ```swift
/// var batch = RecordBatch()
/// for (index, item) in items.enumerated() {
///     do { batch.records.append(try record(for: item)) }
///     catch { batch.rejects.append(Reject(entity: "item", reason: "\(error)", path: "$[\(index)]", raw: item.jsonText)) }
/// }
/// batch.source = RecordSource(response)  // each reject is stored with the response's URL and page
/// ```
public struct RecordBatch: Sendable, Hashable {
    /// The records to write, in order: a key that repeats is written once, the last one winning.
    public var records: [EntityRecord]
    /// The items that could not become records, each kept in `_rejects` with its reason.
    public var rejects: [Reject]
    /// Lines for the feed's report, such as "3 of 5 offers kept".
    public var notes: [String]
    /// The response the batch was mapped from, stored with each reject that has no
    /// ``Reject/source`` of its own; without one, rejects have no URL or page.
    public var source: RecordSource?

    /// A batch of these records, rejects and notes, mapped from the response `source`.
    public init(
        records: [EntityRecord] = [], rejects: [Reject] = [], notes: [String] = [], source: RecordSource? = nil
    ) {
        self.records = records
        self.rejects = rejects
        self.notes = notes
        self.source = source
    }

    /// Adds `other`'s records, rejects and notes after this batch's; `other`'s rejects keep
    /// `other`'s source.
    public mutating func append(_ other: RecordBatch) {
        records += other.records
        rejects += other.rejects.map { reject in
            var reject = reject
            if reject.source == nil { reject.source = other.source }
            return reject
        }
        notes += other.notes
    }
}

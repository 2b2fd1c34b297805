/// What a walk over pages checks as it goes: a page it would ask for again (the same link or
/// cursor), a page whose records are those of an earlier page (an API that ignores the page's
/// parameters or repeats its last page), fewer records than the total the pages gave, and a
/// short page followed by records where the walk steps by the page size
/// (``Paginator/skipsAfterShortPages``), which skipped the records between.
///
/// Each is a walk that would never end or would end incomplete; the adapter decides whether
/// that fails the pass or is a note (``Paginator/allowsIncomplete``).
public struct PageChecks: Sendable {
    private var requested: Set<PageRequest> = []
    /// The pages' records, by a hash of their keys, and the number of the page that held them.
    private var contents: [Int: Int] = [:]
    /// Records the pages counted held (mapped or not).
    public private(set) var delivered = 0
    /// The last total a page gave.
    public private(set) var total: Int?

    /// The last page counted that held fewer records than the page size, when the walk steps by it.
    private var lastShortPage: (number: Int, records: Int)?

    /// Checks for a walk that has not fetched a page yet.
    public init() {}

    /// The earlier page that held fewer than `size` records, when the page `number` (whose
    /// facts these are) holds records after it: the walk stepped past records the API did not
    /// send. Remembers page `number` when it is short itself.
    public mutating func shortPage(before facts: PageFacts, number: Int, size: Int) -> (number: Int, records: Int)? {
        let earlier = facts.recordCount > 0 ? lastShortPage : nil
        lastShortPage = facts.recordCount < size ? (number, facts.recordCount) : nil
        return earlier
    }

    /// Notes that `page` is fetched.
    public mutating func request(_ page: PageRequest) { requested.insert(page) }

    /// Whether `page` was fetched before in this walk.
    public func repeats(_ page: PageRequest) -> Bool { requested.contains(page) }

    /// Counts a page's records and keeps the total it gave.
    public mutating func count(_ facts: PageFacts) {
        delivered += facts.recordCount
        if let pageTotal = facts.total { total = pageTotal }
    }

    /// The number of an earlier page that held the same records (by their keys), or `nil`;
    /// pages without records are never repeats. A page that is no repeat is remembered as
    /// page `number`.
    public mutating func earlierPage(holding records: [EntityRecord], number: Int) -> Int? {
        guard !records.isEmpty else { return nil }
        var hasher = Hasher()
        hasher.combine(records.count)
        for record in records { hasher.combine(record.key) }
        let signature = hasher.finalize()
        if let earlier = contents[signature] { return earlier }
        contents[signature] = number
        return nil
    }

    /// The records delivered and the total, when the pages held fewer records than the total.
    public var shortfall: (delivered: Int, total: Int)? {
        guard let total, delivered < total else { return nil }
        return (delivered, total)
    }
}

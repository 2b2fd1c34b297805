import FeedKit

/// Why a pass's walks over pages ended, summed: one walk, one per date window, or one per
/// parent row (`for_each:`). The pass says it in a note, so the report and `run --json` tell
/// how the pages ended, not only that they did.
struct WalkEnds: Sendable, Equatable {
    /// The pages the walks fetched.
    var pages = 0
    /// The walks that ended, by why.
    var reasons: [WalkEnd: Int] = [:]

    mutating func add(_ walk: PageWalk) {
        pages += walk.pages
        if let end = walk.end { reasons[end, default: 0] += 1 }
    }

    mutating func add(_ other: WalkEnds) {
        pages += other.pages
        reasons.merge(other.reasons, uniquingKeysWith: +)
    }

    /// `pagination: 3 page(s); ended: no next page (no_next_page)`, or for several walks
    /// `pagination: 12 walk(s), 40 page(s); ended: no next page (no_next_page) 11, empty page
    /// (empty_page) 1`; `nil` without walks or with `pagination: none`.
    var note: String? {
        let walks = reasons.values.reduce(0, +)
        guard walks > 0, reasons.keys.contains(where: { $0 != .onePage }) else { return nil }
        let ends = reasons.sorted { $0.key < $1.key }.map { reason, count in
            "\(reason.phrase) (\(reason.rawValue))" + (walks > 1 ? " \(count)" : "")
        }
        let counts = walks > 1 ? "\(walks) walk(s), \(pages) page(s)" : "\(pages) page(s)"
        return "pagination: \(counts); ended: \(ends.joined(separator: ", "))"
    }
}

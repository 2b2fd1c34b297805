/// A Prometheus histogram's counts: how many values fell at or under each bound, their sum and
/// their number.
struct MetricsHistogram: Sendable {
    /// The upper bounds, ascending; `+Inf` is implied.
    let bounds: [Double]
    /// How many values fell in each bucket (not cumulative), the last one past every bound.
    private var counts: [Int64]
    private(set) var sum = 0.0
    private(set) var count: Int64 = 0

    init(bounds: [Double]) {
        self.bounds = bounds
        counts = Array(repeating: 0, count: bounds.count + 1)
    }

    mutating func record(_ value: Double) {
        counts[bounds.firstIndex { value <= $0 } ?? bounds.count] += 1
        sum += value
        count += 1
    }

    /// The cumulative count at or under each bound, then the total (`le="+Inf"`).
    var cumulativeCounts: [Int64] {
        var total: Int64 = 0
        return counts.map {
            total += $0
            return total
        }
    }
}

import Foundation

/// Prometheus's text exposition format (version 0.0.4), written family by family.
///
/// Feedwork writes it itself rather than through a metrics registry: a worker keeps a handful of
/// series for each of up to 10,000 feeds, and a registry that copies a family's series to add one
/// made a worker's first pass of each feed cost as much as all the series before it.
struct MetricsExposition {
    private(set) var text = ""

    /// Starts a family: its `HELP` and `TYPE` lines.
    mutating func family(_ name: String, _ type: String, help: String) {
        text += "# HELP \(name) \(help)\n# TYPE \(name) \(type)\n"
    }

    /// One sample: `name{labels} value`.
    mutating func sample(_ name: String, _ labels: [(String, String)] = [], _ value: String) {
        text += name
        if !labels.isEmpty {
            text += "{" + labels.map { "\($0.0)=\"\(Self.escaped($0.1))\"" }.joined(separator: ",") + "}"
        }
        text += " \(value)\n"
    }

    /// The samples of a histogram: its cumulative buckets, sum and count.
    mutating func histogram(_ name: String, _ labels: [(String, String)] = [], _ histogram: MetricsHistogram) {
        let cumulative = histogram.cumulativeCounts
        for (index, count) in cumulative.enumerated() {
            let bound = index < histogram.bounds.count ? "\(histogram.bounds[index])" : "+Inf"
            sample(name + "_bucket", labels + [("le", bound)], "\(count)")
        }
        sample(name + "_sum", labels, "\(histogram.sum)")
        sample(name + "_count", labels, "\(histogram.count)")
    }

    /// A label value with `\`, `"` and line breaks escaped, as the format asks.
    static func escaped(_ value: String) -> String {
        guard value.contains(where: { $0 == "\\" || $0 == "\"" || $0 == "\n" }) else { return value }
        return value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            .replacingOccurrences(of: "\n", with: "\\n")
    }
}

import Testing

@testable import FeedServer

/// The text the worker's `/metrics` serves, as Prometheus's format (0.0.4) has it.
@Suite struct MetricsExpositionTests {
    @Test func aLabelValueHasItsBackslashesQuotesAndLineBreaksEscaped() {
        var out = MetricsExposition()
        out.sample("m", [("feed", "a\\b\"c\nd")], "1")
        #expect(out.text == #"m{feed="a\\b\"c\nd"} 1"# + "\n")
    }

    @Test func aHistogramsBucketsCountEveryValueAtOrUnderTheirBound() {
        var histogram = MetricsHistogram(bounds: [0.1, 1])
        for value in [0.05, 0.1, 0.5, 7] { histogram.record(value) }
        var out = MetricsExposition()
        out.histogram("h", [("feed", "f")], histogram)
        #expect(
            out.text.split(separator: "\n") == [
                #"h_bucket{feed="f",le="0.1"} 2"#, #"h_bucket{feed="f",le="1.0"} 3"#,
                #"h_bucket{feed="f",le="+Inf"} 4"#, #"h_sum{feed="f"} 7.65"#, #"h_count{feed="f"} 4"#,
            ])
    }
}

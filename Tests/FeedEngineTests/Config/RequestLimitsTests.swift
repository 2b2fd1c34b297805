import FeedEngine
import FeedKit
import Foundation
import Testing

/// Numeric request settings: each value out of range is an error giving the range, at its line
/// and column, and all of them are reported in one go.
@Suite("Config: numeric limits")
struct RequestLimitsTests {
    let loader = ConfigLoader(registry: AdapterRegistry([ItemsAdapter.self]), environment: [:])

    func problems(_ yaml: String) -> [String] { loader.problems(yaml) }

    @Test func everyLimitOutOfRangeIsReportedAtOnceWithItsRange() {
        let found = problems(
            """
            defaults:
              timeout: 0s
              retries: -1
              concurrency: 0
              max_response_size: 0
              max_redirects: -1
            feeds:
              - name: one
                adapter: items
                url: a.json
                connect_timeout: 0s
                retries: 12345678901234567890
            """)
        #expect(
            found == [
                "feeds.yaml:2:12: error: timeout must be between 1ms and 1d, not '0s'",
                "feeds.yaml:3:12: error: retries must be between 0 and 20, not '-1'",
                "feeds.yaml:4:16: error: concurrency must be between 1 and 64, not '0'",
                "feeds.yaml:5:22: error: max_response_size must be between 1 byte and 1024GB, not '0'",
                "feeds.yaml:6:18: error: max_redirects must be between 0 and 50, not '-1'",
                "feeds.yaml:11:22: error: connect_timeout must be between 1ms and 1d, not '0s'",
                "feeds.yaml:12:14: error: retries must be between 0 and 20, not '12345678901234567890' (too large)",
            ], "\(found)")
    }

    @Test func aHugeConcurrencyIsOutOfRange() {
        #expect(
            problems("defaults: { concurrency: 100000 }\nfeeds:\n  - { name: one, adapter: items, url: a.json }\n")
                == ["feeds.yaml:1:26: error: concurrency must be between 1 and 64, not '100000'"])
    }

    @Test func aDurationTooLongForMillisecondsIsAnErrorNotACrash() {
        #expect(
            problems(
                "defaults: { timeout: 99999999999999999 }\nfeeds:\n  - { name: one, adapter: items, url: a.json }\n")
                == ["feeds.yaml:1:22: error: timeout must be between 1ms and 1d, not '99999999999999999' (too long)"])
    }

    @Test func valuesAtTheEdgesOfTheirRangesAreAccepted() {
        #expect(
            problems(
                """
                defaults: { timeout: 1d, retries: 0, concurrency: 64, max_response_size: 1, max_redirects: 50, backoff: 0s }
                feeds:
                  - { name: one, adapter: items, url: a.json, retries: 20, connect_timeout: 1ms }
                """
            ).isEmpty)
    }
}

import FeedEngine
import FeedKit
import Foundation
import Testing

/// `every`, `cron`, `jitter`, `spread`, `retry_failed_after` and `lease` in feeds.yaml.
@Suite("Config: schedules")
struct ScheduleConfigTests {
    let loader = ConfigLoader(registry: AdapterRegistry([ItemsAdapter.self]), environment: [:])

    @Test func aFeedTakesTheDefaultScheduleUnlessItHasItsOwn() throws {
        let config = try loader.load(
            yaml: """
                defaults: { every: 1h, jitter: 10%, retry_failed_after: 5m, lease: 90s }
                feeds:
                  - { name: one, adapter: items, url: a.json }
                  - { name: two, adapter: items, url: b.json, every: 15m }
                  - { name: three, adapter: items, url: c.json, cron: "0 6 * * *" }
                """, path: "feeds.yaml", directory: "/tmp")
        #expect(
            config.feeds.map { $0.schedule?.description } == [
                "every 1h (jitter 10%)", "every 15m (jitter 10%)", "cron 0 6 * * *",
            ])
        #expect(config.feeds.map { $0.schedule?.retryFailedAfter } == [.minutes(5), .minutes(5), .minutes(5)])
        #expect(config.lease == .seconds(90))
    }

    @Test func aFeedWithoutAnyScheduleIsLeftToRun() throws {
        let config = try loader.load(
            yaml: "feeds:\n  - { name: one, adapter: items, url: a.json }\n", path: "feeds.yaml", directory: "/tmp")
        #expect(config.feeds.first?.schedule == nil)
        #expect(config.lease == .seconds(60))
    }

    @Test func everyAndCronTogetherAreAnErrorAtTheCronKey() {
        let found = loader.problems(
            """
            feeds:
              - { name: one, adapter: items, url: a.json, every: 1m, cron: "* * * * *" }
            """)
        #expect(
            found == ["feeds.yaml:2:58: error: give either 'every' or 'cron', not both: a feed has one schedule"],
            "\(found)")
    }

    @Test func aMalformedScheduleValueIsAnErrorAtItsLineAndColumn() {
        let found = loader.problems(
            """
            defaults: { every: 500ms, lease: 1s }
            feeds:
              - { name: one, adapter: items, url: a.json, cron: "0 25 * * *" }
              - { name: two, adapter: items, url: b.json, every: 1m, jitter: 150% }
              - { name: three, adapter: items, url: c.json, every: 1m, retry_failed_after: soon }
            """)
        #expect(found.contains("feeds.yaml:1:20: error: every must be between 1s and 366d, not '500ms'"), "\(found)")
        #expect(found.contains("feeds.yaml:1:34: error: lease must be between 2s and 1d, not '1s'"), "\(found)")
        #expect(
            found.contains { $0.hasPrefix("feeds.yaml:3:53: error: ") && $0.contains("hour field '25'") }, "\(found)")
        #expect(
            found.contains { $0.hasPrefix("feeds.yaml:4:66: error: ") && $0.contains("jitter must be a percentage") },
            "\(found)")
        #expect(
            found.contains("feeds.yaml:5:80: error: 'soon' is not a duration (use e.g. 500ms, 30s, 10m, 2h, 1d)"),
            "\(found)")
    }

    @Test func jitterWithACronScheduleIsAnError() {
        let found = loader.problems(
            """
            feeds:
              - { name: one, adapter: items, url: a.json, cron: "@daily", jitter: 10% }
            """)
        #expect(
            found == ["feeds.yaml:2:63: error: 'jitter' spreads 'every' schedules; a cron schedule runs at its times"],
            "\(found)")
    }

    @Test func everyFeedIsSpreadOverItsIntervalUnlessSpreadIsFalse() throws {
        let config = try loader.load(
            yaml: """
                defaults: { every: 1h }
                feeds:
                  - { name: one, adapter: items, url: a.json }
                  - { name: two, adapter: items, url: b.json, every: 15m, spread: false }
                  - { name: three, adapter: items, url: c.json, cron: "0 6 * * *" }
                """, path: "feeds.yaml", directory: "/tmp")
        #expect(
            config.feeds.map { $0.schedule?.offset } == [
                FeedSchedule.offset(ofFeed: "one", every: .hours(1)), nil, nil,
            ])
        #expect(config.feeds.map { $0.schedule?.description } == ["every 1h", "every 15m", "cron 0 6 * * *"])
    }

    @Test func aFeedsOwnSpreadReplacesTheDefaults() throws {
        let config = try loader.load(
            yaml: """
                defaults: { every: 10s, spread: false }
                feeds:
                  - { name: one, adapter: items, url: a.json }
                  - { name: two, adapter: items, url: b.json, spread: true }
                """, path: "feeds.yaml", directory: "/tmp")
        #expect(
            config.feeds.map { $0.schedule?.offset } == [nil, FeedSchedule.offset(ofFeed: "two", every: .seconds(10))])
    }

    @Test func spreadWithACronScheduleOrNotABooleanIsAnError() {
        let found = loader.problems(
            """
            feeds:
              - { name: one, adapter: items, url: a.json, cron: "@daily", spread: false }
              - { name: two, adapter: items, url: b.json, every: 1m, spread: sometimes }
            """)
        #expect(
            found.contains(
                "feeds.yaml:2:63: error: 'spread' places 'every' schedules in their interval; a cron schedule runs at its times"
            ),
            "\(found)")
        #expect(found.contains { $0.hasPrefix("feeds.yaml:3:") && $0.contains("sometimes") }, "\(found)")
        #expect(found.count == 2, "\(found)")
    }

    @Test func aMisspeltScheduleKeyIsSuggested() {
        let found = loader.problems(
            """
            feeds:
              - { name: one, adapter: items, url: a.json, evrey: 1m }
            """)
        #expect(
            found.contains { $0.contains("unknown key 'evrey'") && $0.contains("did you mean 'every'?") }, "\(found)")
    }
}

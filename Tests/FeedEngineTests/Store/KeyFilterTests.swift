import FeedKit
import Testing

@testable import FeedEngine

/// The filter lets a first pass insert without looking keys up, so it must never forget a key.
@Suite("Key filter")
struct KeyFilterTests {
    @Test func everyInsertedKeyIsReportedAsMaybeSeen() {
        var filter = KeyFilter()
        for index in 0..<300_000 { filter.insert(KeyFilter.hash(key: "key-\(index)")) }
        let forgotten = (0..<300_000).filter { !filter.mightContain(KeyFilter.hash(key: "key-\($0)")) }
        #expect(forgotten.isEmpty)
    }

    @Test func fewKeysNeverInsertedAreReportedAsMaybeSeen() {
        var filter = KeyFilter()
        for index in 0..<300_000 { filter.insert(KeyFilter.hash(key: "key-\(index)")) }
        let falsePositives = (0..<100_000).filter { filter.mightContain(KeyFilter.hash(key: "other-\($0)")) }
        #expect(falsePositives.count < 3_000, "\(falsePositives.count) false positives in 100,000")
    }

    @Test func appendModeTellsTheSameKeyWithOtherContentApart() {
        var filter = KeyFilter()
        filter.insert(KeyFilter.hash(key: "a", salt: 1))
        #expect(filter.mightContain(KeyFilter.hash(key: "a", salt: 1)))
        #expect(!filter.mightContain(KeyFilter.hash(key: "a", salt: 2)))
    }
}

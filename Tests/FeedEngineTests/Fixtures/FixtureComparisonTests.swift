import FeedEngine
import FeedFixtures
import FeedKit
import Testing

@Suite("FixtureComparison")
struct FixtureComparisonTests {
    func fruit(_ key: String, price: JSONValue) -> JSONObject {
        JSONObject([("_feed", .string("shop")), ("_key", .string(key)), ("type", .string(key)), ("price", price)])
    }

    @Test func aChangedValueIsNamedByEntityKeyAndField() {
        let expected = RecordSnapshot(tables: ["fruit": [fruit("apple", price: .number("149"))]])
        let actual = RecordSnapshot(tables: ["fruit": [fruit("apple", price: .number("150"))]])
        let mismatches = FixtureComparison.compare(expected: expected, actual: actual)
        #expect(
            mismatches.map(\.description) == [#"fruit key "apple" (feed shop): field price: expected 149, got 150"#])
    }

    @Test func missingAndExtraRowsAreReported() {
        let expected = RecordSnapshot(tables: [
            "fruit": [fruit("apple", price: .number("1")), fruit("kiwi", price: .number("2"))]
        ])
        let actual = RecordSnapshot(tables: [
            "fruit": [fruit("apple", price: .number("1")), fruit("pear", price: .number("3"))]
        ])
        let kinds = FixtureComparison.compare(expected: expected, actual: actual).map { ($0.row, $0.kind) }
        #expect(kinds.count == 2)
        #expect(kinds[0].0 == #"key "kiwi" (feed shop)"# && kinds[0].1 == .missing(fruit("kiwi", price: .number("2"))))
        #expect(kinds[1].0 == #"key "pear" (feed shop)"# && kinds[1].1 == .extra(fruit("pear", price: .number("3"))))
    }

    @Test func numbersAreComparedByValue() {
        let expected = RecordSnapshot(tables: ["fruit": [fruit("apple", price: .number("1.50"))]])
        let actual = RecordSnapshot(tables: ["fruit": [fruit("apple", price: .number("1.5"))]])
        #expect(FixtureComparison.compare(expected: expected, actual: actual).isEmpty)
    }

    @Test func aFieldOnlyOneSideHasIsAMismatch() {
        let expected = RecordSnapshot(tables: ["fruit": [fruit("apple", price: .number("1"))]])
        var produced = fruit("apple", price: .number("1"))
        produced.members.append((key: "colour", value: .string("red")))
        let mismatches = FixtureComparison.compare(
            expected: expected, actual: RecordSnapshot(tables: ["fruit": [produced]]))
        #expect(
            mismatches.map(\.description) == [
                #"fruit key "apple" (feed shop): field colour: expected no such field, got "red""#
            ])
    }

    @Test func rejectsAreMatchedByFeedEntityAndPath() {
        func reject(_ reason: String) -> JSONObject {
            JSONObject([
                ("feed", .string("shop")), ("entity", .string("fruit")), ("path", .string("$.fruit[2].price")),
                ("reason", .string(reason)),
            ])
        }
        let mismatches = FixtureComparison.compare(
            expected: RecordSnapshot(tables: ["_rejects": [reject("price is missing")]]),
            actual: RecordSnapshot(tables: ["_rejects": [reject("price must not be negative")]]))
        #expect(
            mismatches.map(\.description) == [
                #"_rejects feed shop, entity fruit, path $.fruit[2].price: field reason: expected "price is missing", got "price must not be negative""#
            ])
    }

    @Test func stringsOfADecimalColumnAreComparedByValue() {
        let expected = RecordSnapshot(tables: ["fruit": [fruit("apple", price: .string("12.5"))]])
        let actual = RecordSnapshot(
            tables: ["fruit": [fruit("apple", price: .string("12.50"))]], decimalColumns: ["fruit": ["price"]])
        #expect(FixtureComparison.compare(expected: expected, actual: actual).isEmpty)
        let other = RecordSnapshot(
            tables: ["fruit": [fruit("apple", price: .string("12.51"))]], decimalColumns: ["fruit": ["price"]])
        #expect(FixtureComparison.compare(expected: expected, actual: other).count == 1)
    }

    @Test func stringsOfATextColumnAreComparedExactly() {
        let expected = RecordSnapshot(tables: ["fruit": [fruit("apple", price: .string("12.5"))]])
        let actual = RecordSnapshot(tables: ["fruit": [fruit("apple", price: .string("12.50"))]])
        #expect(FixtureComparison.compare(expected: expected, actual: actual).count == 1)
    }
}

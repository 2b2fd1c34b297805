import FeedEngine
import Testing

@testable import JSONFeed

/// The mapping fingerprint: which option changes make the next pass map every page again.
@Suite("json adapter: mapping fingerprint")
struct MappingFingerprintTests {
    static let base = """
        url: https://api.example/items
        entity: item
        key: id
        records: $.items
        pagination: { type: offset, limit: 100, total_path: $.total }
        fields:
          id: int
          price: { type: decimal, divide: 100 }
          tags: { type: list, fields: { name: string, weight: { type: int, default: 0 } } }
        """

    static func fingerprint(_ yaml: String) throws -> String {
        let options = try NodeDecoder(file: "feed.yaml").decode(JSONAdapter.Options.self, yaml: yaml)
        return JSONAdapter.fingerprint(of: options)
    }

    @Test func theSameOptionsGiveTheSameFingerprint() throws {
        #expect(try Self.fingerprint(Self.base) == Self.fingerprint(Self.base))
    }

    @Test func optionsThatDoNotDecideTheRowsLeaveTheFingerprintAlone() throws {
        let moved = Self.base.replacingOccurrences(
            of: "https://api.example/items", with: "https://mirror.example/items")
        #expect(try Self.fingerprint(moved) == Self.fingerprint(Self.base))
    }

    @Test(arguments: [
        ("$.items", "$.data"),
        ("entity: item", "entity: thing"),
        ("key: id", "key: [id, price]"),
        ("limit: 100", "limit: 50"),
        ("total_path: $.total", "total_path: $.count"),
        ("divide: 100", "multiply: 100"),
        ("name: string", "name: int"),
        ("default: 0", "default: 1"),
        ("tags: { type: list, fields", "tags: { type: list, as: json, fields"),
        ("key: id", "key: id\nentities: [{ records: $.included, entity: person, key: id, fields: { id: int } }]"),
        ("total_path: $.total }", "total_path: $.total, has_more_path: $.more }"),
        ("price: { type: decimal,", "price: { type: decimal, null_values: [\"-\"],"),
    ])
    func changingAnOptionThatDecidesTheRowsChangesTheFingerprint(change: (String, String)) throws {
        let changed = Self.base.replacingOccurrences(of: change.0, with: change.1)
        #expect(changed != Self.base)
        #expect(try Self.fingerprint(changed) != Self.fingerprint(Self.base))
    }

    @Test func partsAreDelimitedSoTextCannotMoveFromOneToTheNext() throws {
        var one = JSONAdapter.FingerprintText()
        one.add("a", "x;b=1:y")
        var other = JSONAdapter.FingerprintText()
        other.add("a", "x")
        other.add("b", "y")
        #expect(one.text != other.text)
    }
}

import FeedKit
import Foundation
import Testing

/// Relations travel as JSON in `_entities`, including those an earlier Feedwork stored.
@Suite("Relation coding")
struct RelationCodingTests {
    @Test func aRelationStoredWithoutEnforcedIsNotEnforced() throws {
        let json = #"{"column":"source","entity":"currency","labelColumn":"name"}"#
        let relation = try JSONDecoder().decode(Relation.self, from: Data(json.utf8))
        #expect(relation == Relation(column: "source", entity: "currency", labelColumn: "name"))
        #expect(!relation.enforced)
    }

    @Test func anEnforcedRelationKeepsItsFlagThroughJSON() throws {
        let relation = Relation(column: "category_id", entity: "category", enforced: true)
        let json = try JSONEncoder().encode(relation)
        #expect(String(decoding: json, as: UTF8.self).contains(#""enforced":true"#))
        #expect(try JSONDecoder().decode(Relation.self, from: json) == relation)
    }
}

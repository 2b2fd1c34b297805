import FeedTestSupport
import Foundation
import Testing

/// A condition's chip on an entity page shows the value as the facet that added it does.
@Suite struct ServeConditionChipTests {
    typealias JSON = [String: Any]

    /// The chip of `condition` in the entity page's HTML: its shown text.
    static func chip(_ page: String, condition: String) -> String? {
        let marker = "data-condition=\"\(condition)\">"
        guard let start = page.range(of: marker)?.upperBound else { return nil }
        return String(page[start...].prefix { $0 != "<" }).trimmingCharacters(in: .whitespaces)
    }

    @Test(arguments: HarnessStore.available)
    func aFacetsConditionShowsTheFacetsLabel(store: HarnessStore) async throws {
        let harness = try await ServedStore.harness(store)
        try await ServedStore.serve(harness) { client in
            let answer = try ServedStore.json(
                try await client.execute(uri: "/api/entities/classified/facets", method: .get))
            let facets = try #require((answer as? JSON)?["facets"] as? [JSON])
            for field in ["category_id", "is_urgent"] {
                let facet = try #require(facets.first { $0["field"] as? String == field })
                for count in try #require(facet["counts"] as? [JSON]) {
                    let value = try #require(count["value"] as? String)
                    let label = try #require(count["label"] as? String)
                    let condition = "\(field)=\(value)"
                    let page = ServedStore.text(
                        try await client.execute(
                            uri: "/entities/classified?view=table&where=\(condition)", method: .get))
                    #expect(Self.chip(page, condition: condition) == "\(field) = \(label)", "\(condition)")
                }
            }
        }
    }

    @Test func aConditionWithoutALabelShowsAsWritten() async throws {
        let harness = try await ServedStore.harness(.sqlite)
        try await ServedStore.serve(harness) { client in
            let page = ServedStore.text(
                try await client.execute(
                    uri: "/entities/classified?view=table&where=price%3C5000&where=category_id%3D999", method: .get))
            #expect(Self.chip(page, condition: "price&lt;5000") == "price&lt;5000")
            #expect(Self.chip(page, condition: "category_id=999") == "category_id=999")
        }
    }
}

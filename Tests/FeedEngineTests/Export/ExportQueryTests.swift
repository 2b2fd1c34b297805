import FeedFixtures
import FeedKit
import Foundation
import Testing

@testable import FeedEngine
@testable import FeedStoreSQLite

/// Checking requests against the schemas and binding every user value as a parameter.
@Suite("export query building")
struct ExportQueryTests {
    let schemas = Dictionary(
        uniqueKeysWithValues: ExportTestAdapter.description.entities.map { ($0.name, $0) })

    func request(_ entity: String, where filters: [String] = [], order: String? = nil) throws -> ExportRequest {
        var request = ExportRequest(entity: entity)
        request.filters = try filters.map { try ExportFilter(where: $0) }
        request.order = try order.map { try OrderTerm.parseList($0) } ?? []
        return request
    }

    func usageError(_ request: ExportRequest) -> ExportError? {
        do {
            _ = try ExportQuery.build(request, schemas: schemas, dialect: SQLiteDialect())
            return nil
        } catch {
            return error
        }
    }

    @Test func anUnknownEntityIsAUsageErrorOfItsOwnKindListingTheEntitiesAndChildTables() throws {
        let error = try #require(usageError(ExportRequest(entity: "itme")))
        #expect(error.isUsageError)
        #expect(error.kind == .unknownName)
        #expect(error.message == "no entity 'itme' in the store; entities: category, item, item__tags, listing")
    }

    @Test func anUnknownFieldIsAUsageErrorListingTheFieldsAndRelatedEntities() throws {
        let error = try #require(usageError(try request("listing", where: ["colour=red"])))
        #expect(error.kind == .usage)
        #expect(error.message.contains("'listing' has no field 'colour'"))
        #expect(error.message.contains("fields: id, title, category_id; _ columns: _feed, _key, _hash, _run"))
        #expect(error.message.contains("related entities: category"))
    }

    @Test func anUnknownOrderFieldOrColumnIsAUsageError() throws {
        #expect(
            usageError(try request("item", order: "-nope"))?.message.contains("--order: 'item' has no field 'nope'")
                == true)
        var columns = ExportRequest(entity: "item")
        columns.columns = ["id", "ghost"]
        #expect(usageError(columns)?.message.contains("--columns: 'item' has no field 'ghost'") == true)
    }

    @Test func aValueThatDoesNotFitItsColumnTypeIsAUsageError() throws {
        let error = try #require(usageError(try request("item", where: ["id>ten"])))
        #expect(error.message == "--where 'id>ten': 'id' is an integer column; 'ten' is not")
    }

    @Test func filterValuesAreBoundAsTypedParametersNeverSplicedIntoTheSQL() throws {
        let query = try ExportQuery.build(
            try request("item", where: ["name=O'Brien \"x\"", "id>=2", "active=true", "price<1.5", "note~50%_off"]),
            schemas: schemas, dialect: SQLiteDialect())
        #expect(!query.sql.contains("O'Brien"))
        #expect(!query.sql.contains("50%"))
        #expect(
            query.arguments == [
                .text("O'Brien \"x\""), .integer(2), .integer(1), .real(1.5), .text(#"%50\%\_off%"#),
            ])
    }

    @Test func filtersParseEveryOperatorAndKeepTheRestOfTheTextAsTheValue() throws {
        let cases: [(String, ExportFilter.Operator, String)] = [
            ("a=b=c", .equal, "b=c"), ("a!=", .notEqual, ""), ("a<1", .less, "1"), ("a<=1", .lessOrEqual, "1"),
            ("a>1", .greater, "1"), ("a>=1", .greaterOrEqual, "1"), ("a~x y", .contains, "x y"),
        ]
        for (text, op, value) in cases {
            let filter = try ExportFilter(where: text)
            #expect(filter == ExportFilter(field: "a", op: op, value: value), "\(text)")
        }
        #expect(throws: ExportError.self) { try ExportFilter(where: "novalue") }
        #expect(throws: ExportError.self) { try ExportFilter(where: "=x") }
    }

    @Test func orderParsesDescendingTerms() throws {
        #expect(try OrderTerm.parseList("price,-weight") == [.ascending("price"), .descending("weight")])
        #expect(throws: ExportError.self) { try OrderTerm.parseList("price,,weight") }
    }

    @Test func changedSinceTakesARunIdOrAnISO8601Time() throws {
        #expect(try ChangedSince(parsing: "42") == .run(42))
        #expect(
            try ChangedSince(parsing: "2026-01-31T12:00:00+01:00") == .time(Date(timeIntervalSince1970: 1_769_857_200)))
        #expect(try ChangedSince(parsing: "2026-01-31") == .time(Date(timeIntervalSince1970: 1_769_817_600)))
        #expect(throws: ExportError.self) { try ChangedSince(parsing: "yesterday") }
    }
}

import FeedEngine
import FeedFixtures
import FeedKit
import FeedTestSupport
import Foundation

/// An adapter for export tests: writes the records listed in a JSON file,
/// `[{"entity": "item", "fields": {...}, "children": {"tags": [{...}]}}]`, each value typed by
/// its column (a `json` column stores the value's JSON text).
struct ExportTestAdapter: FeedAdapter {
    struct Options: Decodable, Sendable { var url: String }

    /// Every column type, a nullable text and a child list.
    static let item = EntitySchema(
        name: "item",
        columns: [
            Column("id", .integer, nullable: false), Column("amount", .real), Column("name", .text),
            Column("active", .boolean), Column("price", .decimal), Column("seen_at", .timestamp),
            Column("payload", .json), Column("note", .text),
        ],
        key: ["id"], order: [.ascending("id")],
        children: [ChildSchema(name: "tags", columns: [Column("label", .text), Column("weight", .integer)])])

    static let category = EntitySchema(
        name: "category", columns: [Column("id", .integer, nullable: false), Column("name", .text)], key: ["id"],
        order: [.ascending("id")])

    /// Points at `category` by id, with the category's name as its label.
    static let listing = EntitySchema(
        name: "listing",
        columns: [Column("id", .integer, nullable: false), Column("title", .text), Column("category_id", .integer)],
        key: ["id"], relations: [Relation(column: "category_id", entity: "category", labelColumn: "name")],
        order: [.ascending("id")])

    static let description = AdapterDescription(
        name: "export-test", summary: "Writes the records of a JSON file.",
        options: [OptionHelp("url", "string", "the records")], entities: [item, category, listing])

    let options: Options

    init(options: Options, feed: FeedSetup) { self.options = options }

    func run(_ pass: FeedPass) async throws {
        let response = try await pass.fetch(FetchRequest(url: options.url))
        let items = try JSONParser.parse(response.body).arrayValue ?? []
        let schemas = Dictionary(uniqueKeysWithValues: Self.description.entities.map { ($0.name, $0) })
        var records: [EntityRecord] = []
        for item in items {
            guard let name = item["entity"]?.stringValue, let schema = schemas[name] else {
                throw RecordError(reason: "unknown entity in \(item.jsonText)")
            }
            var children: [String: [[FieldValue]]] = [:]
            for child in schema.children {
                children[child.name] = (item["children"]?[child.name]?.arrayValue ?? []).map { row in
                    child.columns.map { Self.value(row[$0.name], type: $0.type) }
                }
            }
            let values = schema.columns.map { Self.value(item["fields"]?[$0.name], type: $0.type) }
            records.append(try EntityRecord(schema: schema, values: values, children: children))
        }
        try await pass.write(RecordBatch(records: records))
    }

    static func value(_ json: JSONValue?, type: ColumnType) -> FieldValue {
        guard let json, !json.isNull else { return .null }
        switch type {
        case .integer: return json.int64Value.map(FieldValue.integer) ?? .null
        case .real: return json.doubleValue.map(FieldValue.real) ?? .null
        case .boolean: return json.boolValue.map(FieldValue.bool) ?? .null
        case .json: return .text(json.jsonText)
        case .text, .decimal, .timestamp, .date: return .text(json.stringValue ?? json.numberText)
        }
    }
}

/// A store filled through the real engine by ``ExportTestAdapter``.
struct ExportTestStore {
    let harness: FeedHarness

    /// Writes `records` (JSON text) as `<feed>.json` and a feed reading it for each of `feeds`,
    /// stored on `driver`.
    init(records: String, feeds: [String] = ["main"], driver: HarnessStore = .sqlite) throws {
        let yaml = "feeds:\n" + feeds.map { "  - { name: \($0), adapter: export-test, url: \($0).json }\n" }.joined()
        var files: [String: Data] = [:]
        for feed in feeds { files["\(feed).json"] = Data(records.utf8) }
        harness = try FeedHarness(
            registry: AdapterRegistry([ExportTestAdapter.self]), yaml: yaml, files: files, store: driver)
    }

    /// Runs the feeds and returns the run ids, failing when a feed failed.
    @discardableResult
    func run() async throws -> [Int64] {
        let report = try await harness.run()
        for feed in report.feeds where feed.status == .failed {
            throw RecordError(reason: "feed \(feed.feed) failed: \(feed.error ?? "")")
        }
        return report.feeds.compactMap(\.run)
    }

    /// Replaces the records a feed reads.
    func setRecords(_ records: String, feed: String = "main") throws {
        try harness.write("\(feed).json", Data(records.utf8))
    }

    func exporter() throws -> Exporter { try Exporter(config: harness.config()) }

    /// The export of `request` as text.
    func export(_ request: ExportRequest, format: ExportFormat) async throws -> String {
        let output = ExportOutput.memory()
        try await exporter().export(request, format: format, to: output)
        return String(decoding: output.bytes, as: UTF8.self)
    }
}

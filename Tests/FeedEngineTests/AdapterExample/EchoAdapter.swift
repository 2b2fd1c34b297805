// The adapter of docs/adapters/writing-an-adapter.md, compiled here. Keep the code between the
// markers identical to the page's block: `thePageShowsThisExampleVerbatim` checks it.
// Example begin
import FeedKit

public struct EchoAdapter: FeedAdapter {
    public struct Options: Decodable, Sendable { var url: String }  // the feed's YAML keys, decoded strictly

    public static let description = AdapterDescription(
        name: "echo", summary: "Stores a list of names.",
        options: [OptionHelp("url", "string", "where the list is")],
        entities: [EntitySchema(name: "name", columns: [Column("name", .text)], key: ["name"])])

    let options: Options
    public init(options: Options, feed: FeedSetup) throws { self.options = options }

    public func run(_ pass: FeedPass) async throws {
        let response = try await pass.fetch(FetchRequest(url: options.url))  // fetch: the engine does the I/O
        let list = try pass.parseJSON(response)  // parse: errors name the feed, URL and position
        var batch = RecordBatch(source: RecordSource(response))  // map: records, and rejects with their reasons
        for (index, item) in (list.arrayValue ?? []).enumerated() {
            if let name = item.stringValue {
                let fields: [String: FieldValue] = ["name": .text(name)]
                batch.records.append(try EntityRecord(schema: Self.description.entities[0], fields: fields))
            } else {
                let reason = "expected a name, found \(item.kindName)"
                batch.rejects.append(Reject(entity: "name", reason: reason, path: "$[\(index)]", raw: item.jsonText))
            }
        }
        try await pass.write(batch)  // one transaction per pass: all of it commits, or none
    }
}
// Example end

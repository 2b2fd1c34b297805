import FeedKit
import Foundation

/// What one pass makes of a tap's output, message by message: streams declared as their
/// SCHEMA comes, records written in batches into the pass, rejects with their reasons, and the
/// last STATE kept for the pass to store.
struct SingerLoader {
    let pass: FeedPass
    /// The tap's command (secrets as `***`), for errors and as the URL of rejects.
    let command: String
    let streamOptions: [String: SingerAdapter.StreamOptions]
    /// Records (and rejects) written at a time.
    let batchSize: Int
    /// The streams known so far, by the name the tap gives them.
    private(set) var streams: [String: SingerStream] = [:]
    /// Streams whose entity came from the catalog: a SCHEMA for them does not redeclare it.
    private let catalogStreams: Set<String>
    /// The value of the last STATE message.
    private(set) var lastState: JSONValue?
    private var batch = RecordBatch()
    /// Properties records had that their stream's schema does not define, by stream.
    private var unknownProperties: [String: [String]] = [:]
    private var ignoredMessages: [String: Int] = [:]
    private var notes: [String] = []

    init(
        pass: FeedPass, command: String, catalog: [SingerStream], streamOptions: [String: SingerAdapter.StreamOptions],
        batchSize: Int = 1000
    ) {
        self.pass = pass
        self.command = command
        self.streamOptions = streamOptions
        self.batchSize = batchSize
        for stream in catalog { streams[stream.name] = stream }
        catalogStreams = Set(catalog.map(\.name))
    }

    /// Acts on line `number` of the tap's output.
    ///
    /// - Throws: ``SingerError`` for a line that is not a Singer message, a RECORD before its
    ///   stream's SCHEMA or a SCHEMA that cannot be an entity; the store's error when a write fails.
    mutating func consume(_ line: Data, number: Int) async throws {
        // Blank lines carry nothing; taps that print them are tolerated.
        if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { return }
        do {
            switch try SingerMessage.parse(line) {
            case .schema(let name, let schema, let keyProperties, let bookmarkProperties):
                let stream = try SingerSchemaMapping.stream(
                    name, schema: schema, keyProperties: keyProperties, bookmarkProperties: bookmarkProperties,
                    options: streamOptions[name])
                try await declare(stream)
            case .record(let name, let record):
                guard let stream = streams[name] else { throw SingerError.Reason.recordBeforeSchema(stream: name) }
                try await add(record, of: stream, line: number)
            case .state(let value):
                lastState = value
            case .other(let type):
                ignoredMessages[type, default: 0] += 1
            }
        } catch let reason as SingerError.Reason {
            throw SingerError(feed: pass.feed, command: command, line: number, reason: reason)
        }
    }

    /// Writes what is pending and adds the pass's notes; call after the tap ended well.
    mutating func finish() async throws {
        for (type, count) in ignoredMessages.sorted(by: { $0.key < $1.key }) {
            notes.append("ignored \(count) \(type) message(s)")
        }
        for (stream, names) in unknownProperties.sorted(by: { $0.key < $1.key }) {
            notes.append(
                "stream '\(stream)': records had properties its schema does not define, left out: "
                    + names.joined(separator: ", "))
        }
        batch.notes += notes
        notes = []
        try await flush()
    }

    private mutating func declare(_ stream: SingerStream) async throws {
        if let known = streams[stream.name] {
            guard known.binding != stream.binding else { return }
            if catalogStreams.contains(stream.name) {
                let note = "stream '\(stream.name)': the tap's SCHEMA differs from the catalog's; the catalog's is used"
                if !notes.contains(note) { notes.append(note) }
                return
            }
            throw SingerError.Reason.schemaChanged(stream: stream.name)
        }
        let entity = stream.schema.name.lowercased()
        if let other = streams.values.first(where: { $0.schema.name.lowercased() == entity }) {
            throw SingerError.Reason.badSchema(
                stream: stream.name,
                message:
                    "its entity '\(stream.schema.name)' is also stream '\(other.name)''s; give one of them another `entity:` under `streams:`"
            )
        }
        try await pass.declare(stream.binding)
        streams[stream.name] = stream
    }

    private mutating func add(_ record: JSONValue, of stream: SingerStream, line: Int) async throws {
        do {
            let (mapped, unknown) = try SingerRecordMapping.record(record, of: stream)
            batch.records.append(mapped)
            if !unknown.isEmpty { noteUnknown(unknown, of: stream.name) }
        } catch {
            batch.rejects.append(
                Reject(
                    entity: stream.schema.name, reason: error.reason,
                    path: "$.record" + (error.field.map { SingerLoader.pathComponent($0) } ?? ""), raw: record.jsonText,
                    source: RecordSource(url: command, page: line)))
        }
        if batch.records.count + batch.rejects.count >= batchSize { try await flush() }
    }

    private mutating func noteUnknown(_ names: [String], of stream: String) {
        var known = unknownProperties[stream, default: []]
        guard known.count < 20 else { return }
        for name in names where !known.contains(name) && known.count < 20 { known.append(name) }
        unknownProperties[stream] = known
    }

    private mutating func flush() async throws {
        guard !batch.records.isEmpty || !batch.rejects.isEmpty || !batch.notes.isEmpty else { return }
        let pending = batch
        batch = RecordBatch()
        try await pass.write(pending)
    }

    /// `.name`, or `['odd name']` for a property that is not a plain name.
    static func pathComponent(_ name: String) -> String {
        let plain =
            name.first.map { $0.isASCII && ($0.isLetter || $0 == "_") } == true
            && name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
        return plain ? ".\(name)" : "['\(name.replacingOccurrences(of: "'", with: "\\'"))']"
    }
}

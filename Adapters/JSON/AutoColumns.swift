import FeedKit

/// `extra: columns`: the top-level members of the records that `fields` does not declare become
/// typed columns of the entity, typed from their values (``InferredType``) and widened when later
/// values disagree.
///
/// The types are known only once every record of the pass has been seen, so the pass holds the
/// entity's records (mapped with their undeclared members as JSON text in a trailing `_extra`
/// value) until its last page, then declares the entity with the declared fields and the found
/// columns (``FeedPass/declare(_:)``) and writes the records. The columns found by earlier passes
/// are kept in the feed's state, so a column stays (NULL in new rows) when a pass's records lack
/// its member, and its type widens from the stored one. Declared fields always win: a member a
/// field reads is never a column of its own.
struct AutoColumns: Sendable {
    /// The `_state` key of the columns found so far: `[["name","type"],...]` in column order.
    /// Read by `--full-refresh` passes too (``FeedPass/schemaStatePrefix``), so they keep the
    /// columns earlier passes found.
    static let stateKey = FeedPass.schemaStatePrefix + "json.auto_columns"
    /// Where an earlier Feedwork kept them (not read by `--full-refresh`); moved to
    /// ``stateKey`` by the next pass.
    static let legacyStateKey = "json.auto_columns"
    /// The most records a batch of the held records holds when they are written.
    static let batchSize = 1000

    /// The entity as the mapper writes it: the declared columns, then `_extra`.
    let schema: EntitySchema
    let mode: WriteMode
    /// The feed's schema contract says `new_columns: discard`: after the first pass, members
    /// without a column get none.
    let discardsNew: Bool

    /// A column found in the records.
    struct Found: Sendable, Hashable {
        var name: String
        var type: InferredType
    }

    /// Declares the entity with the columns found, writes `held` (records mapped with their
    /// undeclared members last), then counts `unchanged` records of pages not mapped again.
    func finish(held: [EntityRecord], unchanged: Int, pass: FeedPass) async throws {
        let current = try await pass.state(Self.stateKey)
        let legacy = current == nil ? try await pass.state(Self.legacyStateKey) : nil
        let storedText = current ?? legacy
        let stored = Self.decode(storedText)
        let members = held.map(Self.members(of:))
        let (found, skipped) = Self.infer(
            members, known: stored, declared: schema.columns.dropLast().map(\.name),
            // The first pass creates the table whatever the contract says.
            discardsNew: discardsNew && storedText != nil)
        let columns = found.map {
            Column($0.name, $0.type.columnType, summary: "found in the records (extra: columns)")
        }
        var entity = schema
        entity.columns = Array(schema.columns.dropLast()) + columns
        try await pass.declare(EntityBinding(entity, mode: mode))
        var batch: [EntityRecord] = []
        batch.reserveCapacity(min(held.count, Self.batchSize))
        for (record, values) in zip(held, members) {
            var record = record
            record.values.removeLast()
            for column in found {
                let value = values[column.name] ?? .null
                record.values.append(value.isNull ? .null : column.type.convert(value))
            }
            batch.append(record)
            if batch.count == Self.batchSize {
                try await pass.write(RecordBatch(records: batch))
                batch.removeAll(keepingCapacity: true)
            }
        }
        if !batch.isEmpty { try await pass.write(RecordBatch(records: batch)) }
        if unchanged > 0 { try await pass.countUnchanged(unchanged, entity: schema.name) }
        let added = found.filter { column in !stored.contains { $0.name == column.name } }
        let changed = found.filter { column in stored.contains { $0.name == column.name && $0.type != column.type } }
        if !added.isEmpty {
            pass.note(
                "extra: columns: new column(s) "
                    + added.map { "\($0.name) (\($0.type.rawValue))" }.joined(separator: ", "))
        }
        if !changed.isEmpty {
            pass.note(
                "extra: columns: widened " + changed.map { "\($0.name) to \($0.type.rawValue)" }.joined(separator: ", ")
            )
        }
        if !skipped.isEmpty {
            pass.note("extra: columns: no column for " + skipped.prefix(5).joined(separator: "; "))
        }
        if found != stored || current == nil { try await pass.setState(Self.stateKey, Self.encode(found)) }
        if legacy != nil { try await pass.setState(Self.legacyStateKey, nil) }
    }

    /// The columns for the undeclared `members` of each record, after the `known` ones in their
    /// order (types widened), then new ones in the order they first appear; and why members got
    /// no column (a name that is not a column name, or differs from another only in case, or a
    /// new member when `discardsNew`).
    static func infer(
        _ members: [JSONObject], known: [Found], declared: [String], discardsNew: Bool
    ) -> (columns: [Found], skipped: [String]) {
        var found = known
        var index = Dictionary(known.enumerated().map { ($1.name, $0) }) { first, _ in first }
        let declaredNames = Set(declared.map { $0.lowercased() })
        var folded = Set(known.map { $0.name.lowercased() })
        var skipped: [String] = []
        var refused = Set<String>()
        for record in members {
            for (name, value) in record.members {
                guard let type = InferredType(of: value) else { continue }
                if let at = index[name] {
                    found[at].type = found[at].type.joined(with: type)
                    continue
                }
                guard !refused.contains(name) else { continue }
                let reason: String?
                if discardsNew {
                    reason = "new member '\(name)' (schema: new_columns: discard)"
                } else if declaredNames.contains(name.lowercased()) {
                    reason = "member '\(name)': a declared field has its name"
                } else if !isColumnName(name) {
                    reason = "member '\(name)': not a column name (letters, digits and single underscores)"
                } else if folded.contains(name.lowercased()) {
                    reason = "member '\(name)': differs from another column only in case"
                } else {
                    reason = nil
                }
                if let reason {
                    refused.insert(name)
                    skipped.append(reason)
                    continue
                }
                folded.insert(name.lowercased())
                index[name] = found.count
                found.append(Found(name: name, type: type))
            }
        }
        return (found, skipped)
    }

    /// Whether `name` may name a column: as a declared field's name must (``FieldCompiler``),
    /// and short enough for PostgreSQL (63 bytes).
    static func isColumnName(_ name: String) -> Bool {
        (try? FieldCompiler.checkName(name, what: "field", at: [])) != nil && name.utf8.count <= 63
    }

    /// The undeclared members of a record the mapper wrote, from its trailing `_extra` value.
    static func members(of record: EntityRecord) -> JSONObject {
        guard case .text(let text)? = record.values.last, case .object(let object)? = try? JSONParser.parse(text)
        else { return JSONObject([]) }
        return object
    }

    static func decode(_ text: String?) -> [Found] {
        guard let text, case .array(let pairs)? = try? JSONParser.parse(text) else { return [] }
        return pairs.compactMap { pair in
            guard let name = pair[0]?.stringValue, let type = pair[1]?.stringValue.flatMap(InferredType.init(rawValue:))
            else { return nil }
            return Found(name: name, type: type)
        }
    }

    static func encode(_ columns: [Found]) -> String {
        JSONValue.array(columns.map { .array([.string($0.name), .string($0.type.rawValue)]) }).jsonText
    }
}

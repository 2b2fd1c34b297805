import FeedKit

/// One column of a record: where its value is and how it is converted.
///
/// A class, as each record's mapping goes through every plan: as a struct, each copy retained
/// and released its strings, paths and values (`callgrind`, W1 at 20,000 rows: 32 M of the
/// 725 M instructions that parse and map pages).
final class ColumnPlan: Sendable {
    let name: String
    let path: JSONPath
    let converter: ValueConverter
    /// Used for a missing or null value (`.null` when no default is declared).
    let defaultValue: FieldValue
    /// A missing or null value (without a default) rejects the record.
    let required: Bool
    /// `true` for a list kept as a JSON column: the value must be a list.
    let requiresList: Bool
    /// Where the value comes from: the member at `path`, or a `const` or `concat` expression.
    let source: ValueSource

    init(
        name: String, path: JSONPath, converter: ValueConverter, defaultValue: FieldValue, required: Bool,
        requiresList: Bool = false, source: ValueSource = .path
    ) {
        self.name = name
        self.path = path
        self.converter = converter
        self.defaultValue = defaultValue
        self.required = required
        self.requiresList = requiresList
        self.source = source
    }

    /// The column's value in `record`.
    func value(in record: JSONValue) throws(ConversionFailure) -> FieldValue {
        let found: JSONValue?
        switch source {
        case .path: found = path.lookup(record)
        case .constant(let value): return value
        case .concat(let parts, let separator): found = try ValueSource.concatenation(parts, separator, in: record)
        }
        guard let value = found, !value.isNull, !converter.readsAsNull(value) else {
            if required, defaultValue.isNull { throw ConversionFailure(reason: "\(name) is missing or null") }
            return defaultValue
        }
        if requiresList, case .array = value {
        } else if requiresList {
            throw ConversionFailure(reason: "expected a list, found \(value.kindName)")
        }
        return try converter.convert(value)
    }
}

/// A list of a record kept as a child table `<entity>__<field>`.
struct ChildPlan: Sendable {
    enum Items: Sendable {
        /// Scalars, in a `value` column.
        case scalars(ValueConverter)
        /// Objects, one column each per declared field.
        case objects([ColumnPlan])
    }

    let name: String
    let path: JSONPath
    let items: Items
}

/// A record that could not be mapped: why, and the JSON path (relative to the record) of the
/// value at fault.
struct RecordFailure: Error, Sendable {
    var reason: String
    /// `.cost.amount`, `[2]`, `.lines[1].qty`, or empty for the record itself.
    var path: String
}

/// Maps the records of a page to ``EntityRecord``s, compiled once from the feed's fields.
///
/// Every path is compiled to steps and every conversion chosen when the feed is loaded, so
/// mapping a record only walks its values: no per-record dictionaries or path strings.
struct RecordMapper: Sendable {
    let schema: EntitySchema
    /// In the schema's column order, without `_extra`.
    let columns: [ColumnPlan]
    let children: [ChildPlan]
    /// Indexes into `columns` of the key fields, in key order.
    let keyIndexes: [Int]
    /// When set, undeclared members go to an `_extra` JSON column, last in the schema.
    let extraMembers: Set<String>?
    /// Members left out of `_extra` (`extra: {keep: true, except: [...]}`), as paths of names.
    var extraExcept: [JSONPath] = []

    /// The records of one page, and rejects for those that cannot be mapped.
    ///
    /// - Parameter basePath: where the records are in the response (`$.items`), for reject paths.
    func map(_ items: [JSONValue], basePath: String) -> (records: [EntityRecord], rejects: [Reject]) {
        var records: [EntityRecord] = []
        records.reserveCapacity(items.count)
        var rejects: [Reject] = []
        for (index, item) in items.enumerated() {
            map(item, at: index, basePath: basePath, into: &records, rejects: &rejects)
        }
        return (records, rejects)
    }

    /// Maps the record at `index` of a page into `records`, or a reject for it into `rejects`.
    func map(
        _ item: JSONValue, at index: Int, basePath: String, into records: inout [EntityRecord],
        rejects: inout [Reject]
    ) {
        do {
            records.append(try record(item))
        } catch {
            rejects.append(
                Reject(
                    entity: schema.name, reason: error.reason, path: "\(basePath)[\(index)]\(error.path)",
                    raw: item.jsonText))
        }
    }

    /// One record.
    func record(_ item: JSONValue) throws(RecordFailure) -> EntityRecord {
        guard case .object(let object) = item else {
            throw RecordFailure(reason: "expected an object, found \(item.kindName)", path: "")
        }
        var values: [FieldValue] = []
        values.reserveCapacity(columns.count + 1)
        for column in columns {
            do {
                values.append(try column.value(in: item))
            } catch {
                throw RecordFailure(reason: error.reason, path: String(column.path.description.dropFirst()))
            }
        }
        var key = ""
        for (position, index) in keyIndexes.enumerated() {
            let value = values[index]
            if value.isNull {
                throw RecordFailure(
                    reason: "key field '\(columns[index].name)' is missing or null",
                    path: String(columns[index].path.description.dropFirst()))
            }
            if position > 0 { key += "|" }
            key += value.description
        }
        if let extraMembers {
            var extra = object.members.filter { !extraMembers.contains($0.key) }
            if !extraExcept.isEmpty { extra = JSONObject(extra).removing(extraExcept).members }
            values.append(extra.isEmpty ? .null : .text(JSONValue.object(JSONObject(extra)).jsonText))
        }
        guard !children.isEmpty else { return EntityRecord(entity: schema.name, key: key, values: values) }
        var rows: [String: [[FieldValue]]] = [:]
        for child in children {
            rows[child.name] = try childRows(child, in: item)
        }
        return EntityRecord(entity: schema.name, key: key, values: values, children: rows)
    }

    /// The key of `item` alone, from its key fields: for a record that is only deleted, which
    /// may carry little besides its key.
    func key(of item: JSONValue) throws(RecordFailure) -> String {
        guard case .object = item else {
            throw RecordFailure(reason: "expected an object, found \(item.kindName)", path: "")
        }
        var key = ""
        for (position, index) in keyIndexes.enumerated() {
            let column = columns[index]
            let value: FieldValue
            do {
                value = try column.value(in: item)
            } catch {
                throw RecordFailure(reason: error.reason, path: String(column.path.description.dropFirst()))
            }
            if value.isNull {
                throw RecordFailure(
                    reason: "key field '\(column.name)' is missing or null",
                    path: String(column.path.description.dropFirst()))
            }
            if position > 0 { key += "|" }
            key += value.description
        }
        return key
    }

    /// The value of the column at `index` (in the schema's order) in `item`, or `nil` when it
    /// cannot be read.
    func value(ofColumn index: Int, in item: JSONValue) -> FieldValue? {
        guard columns.indices.contains(index) else { return nil }
        return try? columns[index].value(in: item)
    }

    private func childRows(_ child: ChildPlan, in item: JSONValue) throws(RecordFailure) -> [[FieldValue]] {
        // The list's path, for messages only: not built for the records that map.
        var base: String { String(child.path.description.dropFirst()) }
        guard let value = child.path.lookup(item), !value.isNull else { return [] }
        guard case .array(let elements) = value else {
            throw RecordFailure(reason: "expected a list, found \(value.kindName)", path: base)
        }
        var rows: [[FieldValue]] = []
        rows.reserveCapacity(elements.count)
        for (position, element) in elements.enumerated() {
            switch child.items {
            case .scalars(let converter):
                if element.isNull {
                    rows.append([.null])
                    continue
                }
                do {
                    rows.append([try converter.convert(element)])
                } catch {
                    throw RecordFailure(reason: error.reason, path: "\(base)[\(position)]")
                }
            case .objects(let columns):
                guard case .object = element else {
                    throw RecordFailure(
                        reason: "expected an object, found \(element.kindName)", path: "\(base)[\(position)]")
                }
                var row: [FieldValue] = []
                row.reserveCapacity(columns.count)
                for column in columns {
                    do {
                        row.append(try column.value(in: element))
                    } catch {
                        throw RecordFailure(
                            reason: error.reason, path: "\(base)[\(position)]\(column.path.description.dropFirst())")
                    }
                }
                rows.append(row)
            }
        }
        return rows
    }
}

import FeedKit
import Foundation

/// Turns the declared `fields:` into a schema and a ``RecordMapper``, checking every field.
///
/// Problems are ``OptionError``s whose path (`fields.price.divide`) the loader turns into the
/// line and column of the value at fault; every field is checked, so all of them are reported
/// at once.
enum FieldCompiler {
    struct Output {
        var schema: EntitySchema
        var mapper: RecordMapper
        /// The paths of fields that read an ancestor of their record (`../@time`, XML only).
        var ancestorFields: [String] = []
    }

    /// - Parameters:
    ///   - format: the responses' format: XML and CSV give every value as text, and XML fields
    ///     may read their record's ancestors (`../@time`).
    ///   - search: the text fields of the entity's full-text index (`search:`), if any.
    static func compile(
        entity: String, fields: OrderedMapping<JSONAdapter.FieldSpec>, key: [String], keepExtra: Bool,
        format: ResponseFormat = .json, search: [String] = [], extra: JSONAdapter.ExtraSpec? = nil
    ) throws(OptionError.List) -> Output {
        var errors = OptionError.List()
        let extraExcept = errors.check { () throws(OptionError.List) in try extraExceptions(extra) } ?? []
        if !keepExtra, extra?.except != nil {
            errors.append(OptionError("except needs extra: keep or columns", at: ["extra", "except"]))
        }
        errors.check { () throws(OptionError) in try checkName(entity, what: "entity", at: ["entity"]) }
        if fields.entries.isEmpty { errors.append(OptionError("declare at least one field", at: ["fields"])) }
        var compiled = CompiledFields()
        for (name, declared) in fields.entries {
            compileField(name, declared, key: key, format: format, into: &compiled, errors: &errors)
        }
        let keyIndexes = Self.keyIndexes(key, plans: compiled.plans, fields: fields, errors: &errors)
        var columns = compiled.columns
        if keepExtra {
            columns.append(Column("_extra", .json, summary: "members of the record not declared in fields"))
        }
        let schema = EntitySchema(
            name: entity, columns: columns, key: key, order: key.map { .ascending($0) }, children: compiled.children,
            summary: "declared in feeds.yaml", search: search)
        if errors.isEmpty, let problem = schema.searchProblem { errors.append(OptionError(problem, at: ["search"])) }
        try errors.throwIfAny()
        let mapper = RecordMapper(
            schema: schema, columns: compiled.plans, children: compiled.childPlans, keyIndexes: keyIndexes,
            extraMembers: keepExtra ? compiled.topMembers : nil, extraExcept: extraExcept)
        return Output(schema: schema, mapper: mapper, ancestorFields: compiled.ancestorFields)
    }

    /// What the declared fields compiled to so far, in their order.
    private struct CompiledFields {
        var columns: [Column] = []
        var plans: [ColumnPlan] = []
        var children: [ChildSchema] = []
        var childPlans: [ChildPlan] = []
        /// The top-level members the fields read, which `extra:` does not keep again.
        var topMembers = Set<String>()
        /// Each field name case-folded, to report two names that differ only in case.
        var folded: [String: String] = [:]
        var ancestorFields: [String] = []
    }

    /// Compiles one declared field into a column (or a child table), reporting its problems.
    private static func compileField(
        _ name: String, _ declared: JSONAdapter.FieldSpec, key: [String], format: ResponseFormat,
        into compiled: inout CompiledFields, errors: inout OptionError.List
    ) {
        let at = ["fields", name]
        let (spec, media) = Self.mediaResolved(declared)
        errors.check { () throws(OptionError) in try checkName(name, what: "field", at: at) }
        errors.check { () throws(OptionError) in try checkDistinct(name, from: &compiled.folded, at: at) }
        let path = errors.check { () throws(OptionError) in
            if format == .xml, let text = spec.path, text.hasPrefix("../"), spec.type != "list" {
                // Read from the member the record locator copies the ancestor's value into.
                compiled.ancestorFields.append(text)
                return JSONPath(steps: [.key(text)])
            }
            return try parsePath(spec.path ?? name, at: spec.path == nil ? at : at + ["path"])
        }
        compiled.topMembers.formUnion(Self.readMembers(of: spec, path: path))
        if spec.type == "list" {
            switch errors.check({ () throws(OptionError.List) in
                try listPlan(name: name, spec: spec, path: path ?? .root, at: at)
            }) {
            case .child(let schema, let plan)?:
                compiled.children.append(schema)
                compiled.childPlans.append(plan)
            case .column(let plan)?:
                compiled.columns.append(Column(name, .json))
                compiled.plans.append(plan)
            case nil:
                break
            }
            return
        }
        guard
            let plan = errors.check({ () throws(OptionError) in
                try columnPlan(name: name, spec: spec, path: path ?? .root, at: at, readsText: format.isText)
            })
        else { return }
        let role = errors.check { () throws(OptionError) in try Self.role(of: spec, at: at) } ?? nil
        compiled.columns.append(
            Column(
                name, plan.converter.columnType, nullable: !key.contains(name), currency: plan.converter.currency,
                role: role, media: media))
        compiled.plans.append(plan)
    }

    /// The indexes of the key's fields among the columns, and the problems of `key:`.
    private static func keyIndexes(
        _ key: [String], plans: [ColumnPlan], fields: OrderedMapping<JSONAdapter.FieldSpec>,
        errors: inout OptionError.List
    ) -> [Int] {
        var keyIndexes: [Int] = []
        if key.isEmpty { errors.append(OptionError("key must name at least one field", at: ["key"])) }
        for name in key {
            guard let index = plans.firstIndex(where: { $0.name == name }) else {
                // A declared field with a problem of its own is reported there, not here.
                guard let spec = fields.entries.first(where: { $0.key == name })?.value else {
                    errors.append(
                        OptionError(
                            "key field '\(name)' is not declared in fields (declared: \(fields.entries.map(\.key).joined(separator: ", ")))",
                            at: ["key"]))
                    continue
                }
                if spec.type == "list" {
                    errors.append(
                        OptionError("key field '\(name)' is a list; a key must be a scalar field", at: ["key"]))
                }
                continue
            }
            guard plans[index].converter.kind != .json else {
                errors.append(
                    OptionError("key field '\(name)' is a json field; a key must be a scalar field", at: ["key"]))
                continue
            }
            keyIndexes.append(index)
        }
        return keyIndexes
    }

    private enum ListPlan {
        case child(ChildSchema, ChildPlan)
        case column(ColumnPlan)
    }

    private static func listPlan(name: String, spec: JSONAdapter.FieldSpec, path: JSONPath, at: [String])
        throws(OptionError.List) -> ListPlan
    {
        var errors = OptionError.List()
        switch spec.storage ?? "table" {
        case "json":
            guard spec.of == nil, spec.fields == nil else {
                errors.append(OptionError("a list stored as json takes no 'of' or 'fields'", at: at + ["as"]))
                throw errors
            }
            return .column(
                ColumnPlan(
                    name: name, path: path, converter: ValueConverter(kind: .json), defaultValue: .null,
                    required: false,
                    requiresList: true))
        case "table":
            if let fields = spec.fields {
                if spec.of != nil {
                    errors.append(OptionError("give either 'of' or 'fields', not both", at: at + ["of"]))
                }
                if fields.entries.isEmpty {
                    errors.append(OptionError("declare at least one field", at: at + ["fields"]))
                }
                var columns: [Column] = []
                var plans: [ColumnPlan] = []
                var folded: [String: String] = [:]
                for (itemName, declared) in fields.entries {
                    let itemAt = at + ["fields", itemName]
                    let (itemSpec, media) = Self.mediaResolved(declared)
                    errors.check { () throws(OptionError) in try checkName(itemName, what: "field", at: itemAt) }
                    errors.check { () throws(OptionError) in try checkDistinct(itemName, from: &folded, at: itemAt) }
                    guard itemSpec.type != "list" else {
                        errors.append(
                            OptionError("a list inside a list item is not supported; store it as json", at: itemAt))
                        continue
                    }
                    let itemPath = errors.check { () throws(OptionError) in
                        try parsePath(itemSpec.path ?? itemName, at: itemSpec.path == nil ? itemAt : itemAt + ["path"])
                    }
                    guard
                        let plan = errors.check({ () throws(OptionError) in
                            try columnPlan(name: itemName, spec: itemSpec, path: itemPath ?? .root, at: itemAt)
                        })
                    else { continue }
                    columns.append(Column(itemName, plan.converter.columnType, media: media))
                    plans.append(plan)
                }
                try errors.throwIfAny()
                return .child(
                    ChildSchema(name: name, columns: columns), ChildPlan(name: name, path: path, items: .objects(plans))
                )
            }
            // `of: media`: a list of image URLs, mirrored like a media field.
            let media = spec.of == "media"
            let itemType = media ? "string" : spec.of ?? "string"
            guard !["list", "json", "money"].contains(itemType), JSONAdapter.FieldSpec.types.contains(itemType) else {
                errors.append(
                    OptionError(
                        "a list's items ('of') are int, decimal, double, string, media, bool, timestamp or date; for objects declare 'fields'",
                        at: at + ["of"]))
                throw errors
            }
            guard
                let converter = errors.check({ () throws(OptionError) in
                    try converter(for: JSONAdapter.FieldSpec(type: itemType), at: at)
                })
            else { throw errors }
            return .child(
                ChildSchema(name: name, columns: [Column("value", converter.columnType, media: media)]),
                ChildPlan(name: name, path: path, items: .scalars(converter)))
        case let other:
            errors.append(
                OptionError(
                    "a list is stored 'as: table' (a child table) or 'as: json', not '\(other)'", at: at + ["as"]))
            throw errors
        }
    }

    /// `spec` with `type: media` read as what it is short for, a string field with `media:
    /// true`, and whether the field's images are mirrored.
    private static func mediaResolved(_ spec: JSONAdapter.FieldSpec) -> (spec: JSONAdapter.FieldSpec, media: Bool) {
        var resolved = spec
        if spec.type == "media" { resolved.type = "string" }
        return (resolved, spec.type == "media" || spec.media == true)
    }

    private static func columnPlan(
        name: String, spec: JSONAdapter.FieldSpec, path: JSONPath, at: [String], readsText: Bool = false
    ) throws(OptionError) -> ColumnPlan {
        var converter = try converter(for: spec, at: at)
        converter.readsText = readsText
        var defaultValue = FieldValue.null
        if let text = spec.defaultValue {
            do {
                defaultValue = try converter.convert(defaultText: text)
            } catch {
                throw OptionError(
                    "default '\(text)' does not fit type \(spec.type): \(error.reason)", at: at + ["default"])
            }
        }
        return ColumnPlan(
            name: name, path: path, converter: converter, defaultValue: defaultValue, required: spec.required ?? false,
            source: try source(of: spec, converter: converter, at: at))
    }

    private static func converter(for spec: JSONAdapter.FieldSpec, at: [String]) throws(OptionError) -> ValueConverter {
        let kind: ValueConverter.Kind
        switch spec.type {
        case "int": kind = .int
        case "decimal": kind = .decimal
        case "double": kind = .double
        case "string": kind = .string
        case "bool": kind = .bool
        case "json": kind = .json
        case "timestamp":
            guard let format = TimestampFormat(option: spec.format ?? "iso8601") else {
                throw OptionError(
                    "unknown timestamp format '\(spec.format ?? "")'; use iso8601, unix, unix_ms or a pattern with yyyy, MM, dd (and HH, mm, ss)",
                    at: at + ["format"])
            }
            kind = .timestamp(format)
        case "date":
            guard let format = TimestampFormat(option: spec.format ?? "iso8601"), format.readsDates else {
                throw OptionError(
                    "unknown date format '\(spec.format ?? "")'; use iso8601 (YYYY-MM-DD) or a pattern of yyyy, MM and dd such as dd/MM/yyyy",
                    at: at + ["format"])
            }
            kind = .date(format)
        case "money":
            guard let currency = spec.currency else {
                throw OptionError("a money field needs currency (an ISO 4217 code such as EUR)", at: at)
            }
            let code = try Money.currencyOption(currency, default: "", at: at + ["currency"])
            kind = .money(currency: code, exponent: Money.exponent(of: code))
        default:
            throw OptionError(
                JSONAdapter.FieldSpec.typeProblem(spec.type) ?? "unknown field type '\(spec.type)'", at: at + ["type"])
        }
        var converter = ValueConverter(kind: kind)
        for name in spec.transform ?? [] {
            guard let transform = ValueConverter.StringTransform(rawValue: name) else {
                throw OptionError(
                    "unknown transform '\(name)'; use \(ValueConverter.StringTransform.allCases.map(\.rawValue).joined(separator: ", "))",
                    at: at + ["transform"])
            }
            converter.transforms.append(transform)
        }
        if spec.multiply != nil, spec.divide != nil {
            throw OptionError("give either multiply or divide, not both", at: at + ["divide"])
        }
        for (text, divides) in [(spec.multiply, false), (spec.divide, true)] {
            guard let text else { continue }
            let key = divides ? "divide" : "multiply"
            guard let exact = ExactDecimal(text), exact.digits != "0", !exact.isNegative, let factor = exact.decimal
            else {
                throw OptionError("\(key) must be a positive number, not '\(text)'", at: at + [key])
            }
            converter.scale = ValueConverter.Scale(
                factor: factor, divides: divides, powerOfTen: exact.digits == "1" ? exact.exponent : nil)
        }
        try addConversions(spec, to: &converter, at: at)
        return converter
    }

    /// The field's `true`/`false` lists, `from_string`, `null_values` and `map` (whose values
    /// are converted here, so a value that does not fit the type is an error at its line).
    private static func addConversions(
        _ spec: JSONAdapter.FieldSpec, to converter: inout ValueConverter, at: [String]
    ) throws(OptionError) {
        converter.trueTexts = spec.trueValues ?? []
        converter.falseTexts = spec.falseValues ?? []
        if let both = converter.trueTexts.first(where: converter.falseTexts.contains) {
            throw OptionError("'\(both)' is listed in both true and false", at: at + ["false"])
        }
        converter.fromString = spec.fromString ?? false
        converter.nullTexts = Set(spec.nullValues ?? [])
        guard let map = spec.map else { return }
        guard !map.entries.isEmpty else { throw OptionError("map must list at least one value", at: at + ["map"]) }
        var values: [String: FieldValue] = [:]
        for (from, to) in map.entries {
            do {
                values[from] = try converter.convert(defaultText: to)
            } catch {
                throw OptionError(
                    "map value '\(to)' does not fit type \(spec.type): \(error.reason)", at: at + ["map", from])
            }
        }
        converter.map = values
        converter.mapKeys = map.entries.map(\.key)
    }

    static func parsePath(_ text: String, at: [String]) throws(OptionError) -> JSONPath {
        do {
            return try JSONPath(parsing: text)
        } catch {
            throw OptionError(error.description, at: at)
        }
    }

    /// SQLite compares table and column names ignoring (ASCII) case, so `Price` and `price`
    /// would be one column: a field whose name differs from an earlier one only in case is an
    /// error at the later one. `seen` maps lowercased names to the names declared so far.
    static func checkDistinct(_ name: String, from seen: inout [String: String], at: [String]) throws(OptionError) {
        let key = name.lowercased()
        if let earlier = seen[key] {
            throw OptionError(
                "field '\(name)' differs from field '\(earlier)' only in case; SQLite column names ignore case, so give it another name",
                at: at)
        }
        seen[key] = name
    }

    /// Table and column names: letters, digits and `_`, not starting with a digit or `_` (names
    /// starting with `_` belong to Feedwork's own columns).
    static func checkName(_ name: String, what: String, at: [String]) throws(OptionError) {
        guard let first = name.first, first.isASCII, first.isLetter,
            name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }), !name.contains("__")
        else {
            throw OptionError(
                "\(what) name '\(name)' must be letters, digits and single underscores, starting with a letter", at: at)
        }
    }

    /// The field's `role:`, checked against its type: `image`, `link` and `title` name text,
    /// `money` minor units.
    static func role(of spec: JSONAdapter.FieldSpec, at: [String]) throws(OptionError) -> ColumnRole? {
        guard let text = spec.role else { return nil }
        guard let role = ColumnRole(rawValue: text) else {
            let roles = ColumnRole.allCases.map(\.rawValue).joined(separator: ", ")
            throw OptionError("unknown role '\(text)'; use \(roles)", at: at + ["role"])
        }
        let fits = role == .money ? ["money", "int"].contains(spec.type) : ["string", "media"].contains(spec.type)
        guard fits else {
            let wanted = role == .money ? "a money or int field" : "a string field"
            throw OptionError("role \(text) needs \(wanted), not \(spec.type)", at: at + ["role"])
        }
        return role
    }
}

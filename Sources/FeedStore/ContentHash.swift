import FeedKit

/// A 64-bit FNV-1a hash of a record's values, used to tell changed records from unchanged ones
/// by content rather than by write.
///
/// Every record's hash starts from the hash of its entity's fields (``init(fieldsOf:)``), so a
/// row stored under other fields is never taken for unchanged: after a field is renamed, two
/// fields' paths are swapped or a field is added, the same values the API sent before hash
/// differently, and the next pass writes every row it delivers again, into the right columns.
package struct ContentHash: Sendable, Equatable {
    private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    /// The empty hash.
    package init() {}

    /// The hash of `schema`'s fields: its columns' names and types, and its child lists' names
    /// and columns, in order. Nothing else of the schema (key, relations, roles) decides which
    /// column a value lands in or how it is stored.
    package init(fieldsOf schema: EntitySchema) {
        func add(_ columns: [Column]) {
            word(UInt64(columns.count))
            for column in columns {
                combine(.text(column.name))
                combine(.text(column.type.rawValue))
            }
        }
        add(schema.columns)
        word(UInt64(schema.children.count))
        for child in schema.children {
            combine(.text(child.name))
            add(child.columns)
        }
    }

    /// The hash in hex, as it is kept in `_state` to tell when a feed's fields changed.
    package var hex: String { String(value, radix: 16) }

    private mutating func byte(_ byte: UInt8) {
        value ^= UInt64(byte)
        value &*= 0x0000_0100_0000_01b3
    }

    private mutating func word(_ word: UInt64) {
        var word = word
        for _ in 0..<8 {
            byte(UInt8(truncatingIfNeeded: word))
            word >>= 8
        }
    }

    package mutating func combine(_ field: FieldValue) {
        switch field {
        case .null: byte(0)
        case .integer(let value):
            byte(1)
            word(UInt64(bitPattern: value))
        case .real(let value):
            byte(2)
            word(value.bitPattern)
        case .bool(let value):
            byte(3)
            byte(value ? 1 : 0)
        case .text(let text):
            byte(4)
            var text = text
            text.withUTF8 { bytes in
                for b in bytes { byte(b) }
            }
            byte(0xff)
        }
    }

    package mutating func combine(_ fields: [FieldValue]) {
        word(UInt64(fields.count))
        for field in fields { combine(field) }
    }

    /// The hash of a record's values and its child rows (in child-name order), starting from
    /// `fields`, the hash of its entity's fields.
    package static func of(_ record: EntityRecord, fields: ContentHash) -> Int64 {
        var hash = fields
        hash.combine(record.values)
        // Child lists in name order, so the hash does not depend on dictionary order.
        let names = record.children.count > 1 ? record.children.keys.sorted() : Array(record.children.keys)
        for name in names {
            hash.combine(.text(name))
            for row in record.children[name] ?? [] { hash.combine(row) }
        }
        return Int64(bitPattern: hash.value)
    }

}

import FeedKit
import FeedStore

/// Record values as the text of a `COPY ... FROM STDIN` row (the stream escapes them).
///
/// PostgreSQL parses each text as its column's type, so exact values travel as written:
/// integers as digits, reals as the shortest text that reads back as the same `Double`,
/// booleans as `t`/`f`, and texts as they are, which is how decimal (exact digits), timestamp
/// (ISO 8601) and json columns hold their values.
///
/// A real that is not a number becomes NULL, as SQLite stores it (binding a NaN stores NULL
/// there), so both stores read back the same and NaN never reaches `=` or an index, where
/// PostgreSQL would count it equal to itself and greater than every number. Infinities stay
/// infinite, as on SQLite: `Infinity` and `-Infinity`.
enum PostgresCopyText {
    static func text(_ value: FieldValue) -> String? {
        switch value {
        case .null: nil
        case .integer(let number): String(number)
        case .real(let number):
            if number.isNaN {
                nil
            } else if number.isInfinite {
                number < 0 ? "-Infinity" : "Infinity"
            } else {
                number.description
            }
        case .bool(let flag): flag ? "t" : "f"
        case .text(let text): text
        }
    }
}

import FeedKit
import Foundation
import Yams

/// The numeric settings of `defaults:` and of each feed (request limits, `max_reject_ratio`,
/// schedule intervals),
/// checked key by key before the block is decoded, so that every value out of range is reported
/// at once (with the range it must be in) instead of the first one hiding the others.
///
/// Keys at fault are left out of the mapping handed to the decoder; the config is refused
/// anyway, so the rest of the block is still checked.
enum RequestLimits {
    enum Kind {
        case count(ClosedRange<Int>)
        case duration(ClosedRange<Int64>)  // milliseconds
        case size(ClosedRange<Int>)  // bytes
        case ratio  // a number from 0 to 1
    }

    static let day: Int64 = 86_400_000

    /// Each numeric key with its allowed range.
    static let limits: [(key: String, kind: Kind, range: String)] = [
        ("timeout", .duration(1...day), "between 1ms and 1d"),
        ("connect_timeout", .duration(1...day), "between 1ms and 1d"),
        ("backoff", .duration(0...3_600_000), "between 0s and 1h"),
        ("retry_after_cap", .duration(0...day), "between 0s and 1d"),
        ("retries", .count(0...20), "between 0 and 20"),
        ("max_redirects", .count(0...50), "between 0 and 50"),
        ("max_response_size", .size(1...(1 << 40)), "between 1 byte and 1024GB"),
        ("max_media_size", .size(1...(1 << 40)), "between 1 byte and 1024GB"),
        ("concurrency", .count(1...64), "between 1 and 64"),
        ("max_reject_ratio", .ratio, "a number between 0 and 1"),
        ("max_delete_ratio", .ratio, "a number between 0 and 1"),
        ("every", .duration(1000...(366 * day)), "between 1s and 366d"),
        ("retry_failed_after", .duration(1000...day), "between 1s and 1d"),
        ("lease", .duration(2000...day), "between 2s and 1d"),
    ]

    /// Keys of `defaults:` only: how a process runs feeds, not how one feed is fetched.
    static let defaultsOnly: Set<String> = ["concurrency", "lease"]

    /// `mapping` without the keys whose values are out of range or unreadable, and a problem
    /// for each. The ``defaultsOnly`` keys are only checked where `includesConcurrency` (the
    /// defaults).
    static func check(_ mapping: Node.Mapping, includesConcurrency: Bool, file: String)
        -> (mapping: Node.Mapping, problems: [ConfigProblem])
    {
        var problems: [ConfigProblem] = []
        var kept: [(Node, Node)] = []
        for (keyNode, value) in mapping {
            let key = keyNode.scalar?.string ?? ""
            guard let limit = limits.first(where: { $0.key == key }),
                includesConcurrency || !defaultsOnly.contains(key),
                let message = problem(value, key: key, kind: limit.kind, range: limit.range)
            else {
                kept.append((keyNode, value))
                continue
            }
            problems.append(ConfigProblem(message, at: SourceLocation(file: file, mark: value.mark)))
        }
        return (Node.Mapping(kept, mapping.tag, mapping.style, mapping.mark), problems)
    }

    /// What is wrong with `value` for a key of `kind`, with the key's range, or nil.
    private static func problem(_ value: Node, key: String, kind: Kind, range: String) -> String? {
        guard let text = value.scalar?.string, !value.isNull else {
            return "\(key) must be \(range), not \(value.kindName)"
        }
        let outOfRange = "\(key) must be \(range), not '\(text)'"
        let isDigits = !text.isEmpty && text.allSatisfy { $0.isASCII && $0.isNumber }
        switch kind {
        case .count(let allowed):
            guard let number = Int(text) else {
                let isNumber = isDigits || (text.hasPrefix("-") && text.dropFirst().allSatisfy(\.isNumber))
                return isNumber ? outOfRange + " (too large)" : "expected an integer, found '\(text)'"
            }
            return allowed.contains(number) ? nil : outOfRange
        case .duration(let allowed):
            guard let duration = FeedDuration(parsing: text) else {
                return isDigits
                    ? outOfRange + " (too long)"
                    : "'\(text)' is not a duration (use e.g. 500ms, 30s, 10m, 2h, 1d)"
            }
            return allowed.contains(duration.milliseconds) ? nil : outOfRange
        case .size(let allowed):
            guard let size = ByteSize(parsing: text) else {
                return isDigits ? outOfRange + " (too large)" : "'\(text)' is not a size (use e.g. 512KB, 50MB)"
            }
            return allowed.contains(size.bytes) ? nil : outOfRange
        case .ratio:
            guard let ratio = Double(text), (0...1).contains(ratio) else { return outOfRange }
            return nil
        }
    }
}

import Foundation

/// Whether a text holds any of a redactor's secrets, for text after text: the secrets are read
/// once (``Redactor/secrets`` takes a lock and joins the learned ones to the configured ones),
/// and an ASCII secret is looked for in ASCII text byte by byte.
///
/// Foundation's `contains` compares by canonical equivalence through `NSString` on Linux: two
/// passes screening their records against a long-running process's learned secrets kept both
/// of the test suite's threads of Swift's concurrency busy for 27 s (sampled with gdb). For ASCII
/// on both sides canonical equivalence is byte equality, so comparing bytes gives the same answer;
/// anything else still goes through Foundation.
package struct SecretSearch: Sendable {
    private let secrets: [(text: String, ascii: Bool)]

    package init(_ secrets: [String]) {
        self.secrets = secrets.map { ($0, Self.isASCII($0)) }
    }

    /// Whether there is no secret to look for.
    package var isEmpty: Bool { secrets.isEmpty }

    /// Whether `text` contains any of the secrets.
    package func found(in text: String) -> Bool {
        guard !secrets.isEmpty else { return false }
        let ascii = Self.isASCII(text)
        return secrets.contains { secret in
            ascii && secret.ascii ? Self.bytes(of: text, contain: secret.text) : text.contains(secret.text)
        }
    }

    private static func isASCII(_ text: String) -> Bool { text.utf8.allSatisfy { $0 < 0x80 } }

    private static func bytes(of text: String, contain secret: String) -> Bool {
        var text = text
        var secret = secret
        return text.withUTF8 { haystack in
            secret.withUTF8 { needle in
                guard let first = needle.first, needle.count <= haystack.count, let start = haystack.baseAddress,
                    let pattern = needle.baseAddress
                else { return needle.isEmpty }
                // Each place the secret's first byte is, compared whole (`memchr` and `memcmp`).
                let last = haystack.count - needle.count
                var offset = 0
                while offset <= last {
                    guard let found = memchr(start + offset, Int32(first), last - offset + 1) else { return false }
                    let position = start.distance(to: found.assumingMemoryBound(to: UInt8.self))
                    if memcmp(start + position, pattern, needle.count) == 0 { return true }
                    offset = position + 1
                }
                return false
            }
        }
    }
}

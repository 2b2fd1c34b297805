import Foundation

/// Whether a text holds any of a redactor's secrets, for text after text: the secrets are read
/// once (``Redactor/secrets`` takes a lock and joins the learned ones to the configured ones),
/// and ASCII text is searched for the ASCII secrets in one walk through its bytes, whatever
/// their number.
///
/// Foundation's `contains` compares by canonical equivalence through `NSString` on Linux, and was
/// asked once for each secret and each text value of each record: with a long-running process's
/// learned secrets (up to 512 OAuth2 tokens, two forms each), two passes screening their records
/// kept both threads of the test suite's concurrency pool busy for 27 s (sampled with gdb). For
/// ASCII on both sides canonical equivalence is byte equality, so comparing bytes finds every
/// secret Foundation finds (and may find more, inside a `\r\n` that Foundation could keep whole:
/// more redaction, never less); a text or a secret that is not ASCII still goes through
/// Foundation.
package struct SecretSearch: Sendable {
    /// The ASCII secrets (3 bytes or more, as ``Redactor`` keeps no shorter one) by their first
    /// three bytes, and a bit for each pair of first two bytes, which rules out most places of a
    /// text before a look-up.
    private var byPrefix: [UInt32: [[UInt8]]] = [:]
    private var pairs: [UInt64] = []
    /// The same secrets as text, for a text that is not ASCII.
    private var asciiSecrets: [String] = []
    /// Secrets looked for through Foundation: those not ASCII or shorter than three bytes.
    private var others: [String] = []

    package init(_ secrets: [String]) {
        for secret in secrets {
            let bytes = Array(secret.utf8)
            guard bytes.count >= 3, bytes.allSatisfy({ $0 < 0x80 }) else {
                others.append(secret)
                continue
            }
            if pairs.isEmpty { pairs = [UInt64](repeating: 0, count: 1024) }
            asciiSecrets.append(secret)
            byPrefix[Self.prefix(bytes[0], bytes[1], bytes[2]), default: []].append(bytes)
            let pair = Int(bytes[0]) | Int(bytes[1]) << 8
            pairs[pair >> 6] |= 1 << UInt64(pair & 63)
        }
    }

    /// Whether there is no secret to look for.
    package var isEmpty: Bool { byPrefix.isEmpty && others.isEmpty }

    /// Whether `text` contains any of the secrets.
    package func found(in text: String) -> Bool {
        guard !isEmpty else { return false }
        var text = text
        let ascii: Bool? = text.withUTF8 { bytes in
            guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
            return containsASCIISecret(bytes)
        }
        switch ascii {
        case true?: return true
        // A secret that is not ASCII may still match ASCII text canonically (U+212A KELVIN SIGN
        // is `K`): Foundation answers for those.
        case false?: return others.contains { text.contains($0) }
        case nil: return asciiSecrets.contains { text.contains($0) } || others.contains { text.contains($0) }
        }
    }

    private func containsASCIISecret(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard !byPrefix.isEmpty, bytes.count >= 3, let base = bytes.baseAddress else { return false }
        for start in 0...(bytes.count - 3) {
            let pair = Int(bytes[start]) | Int(bytes[start + 1]) << 8
            guard pairs[pair >> 6] & (1 << UInt64(pair & 63)) != 0,
                let candidates = byPrefix[Self.prefix(bytes[start], bytes[start + 1], bytes[start + 2])]
            else { continue }
            let left = bytes.count - start
            for secret in candidates where secret.count <= left {
                let equal = secret.withUnsafeBytes { pattern in
                    pattern.baseAddress.map { memcmp(base + start, $0, pattern.count) == 0 } ?? false
                }
                if equal { return true }
            }
        }
        return false
    }

    private static func prefix(_ first: UInt8, _ second: UInt8, _ third: UInt8) -> UInt32 {
        UInt32(first) | UInt32(second) << 8 | UInt32(third) << 16
    }
}

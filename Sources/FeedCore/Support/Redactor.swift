import Foundation

/// Replaces secrets (values that came from `${VAR}` in feeds.yaml) with `***`.
///
/// Every string that leaves the engine, error messages, reports, `_runs`, cache URLs and
/// recorded fixtures, goes through a redactor. The percent-encoded form of each secret is
/// replaced too, since secrets often travel in query strings.
public struct Redactor: Sendable, Hashable {
    public private(set) var secrets: [String]

    public init(secrets: some Sequence<String> = []) {
        var all = Set<String>()
        for secret in secrets where secret.count >= 3 {
            all.insert(secret)
            all.insert(URLQuery.encode(secret))
        }
        // Longest first, so a secret that contains another is replaced whole.
        self.secrets = all.sorted { $0.count != $1.count ? $0.count > $1.count : $0 < $1 }
    }

    /// `text` with every secret replaced by `***`.
    public func redact(_ text: String) -> String {
        guard !secrets.isEmpty else { return text }
        var result = text
        for secret in secrets where result.contains(secret) {
            result = result.replacingOccurrences(of: secret, with: "***")
        }
        return result
    }

    /// Whether `text` contains any secret.
    public func leaks(_ text: String) -> Bool { secrets.contains { text.contains($0) } }

    /// A redactor that hides the secrets of both.
    public func merging(_ other: Redactor) -> Redactor { Redactor(secrets: secrets + other.secrets) }
}

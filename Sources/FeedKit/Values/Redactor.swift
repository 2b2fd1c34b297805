import Foundation

/// Replaces secrets (values that came from `${VAR}` in feeds.yaml) with `***`.
///
/// Every string that leaves the engine, error messages, reports, `_runs`, cache URLs and
/// recorded fixtures, goes through a redactor. The percent-encoded form of each secret is
/// replaced too, since secrets often travel in query strings.
public struct Redactor: Sendable, Hashable {
    public private(set) var secrets: [String]
    /// The placeholder of each secret (and of its percent-encoded form) whose variable is known:
    /// `${NAME}`, or `${NAME@url}` for the encoded form when it differs.
    public private(set) var placeholders: [String: String] = [:]

    public init(secrets: some Sequence<String> = []) {
        var all = Set<String>()
        for secret in secrets where secret.count >= 3 {
            all.insert(secret)
            all.insert(URLQuery.encode(secret))
        }
        // Longest first, so a secret that contains another is replaced whole.
        self.secrets = all.sorted { $0.count != $1.count ? $0.count > $1.count : $0 < $1 }
    }

    /// A redactor for the values of the environment variables `variables` (name to value).
    public init(variables: [String: String]) {
        self.init(secrets: variables.values)
        for (name, value) in variables where value.count >= 3 {
            placeholders[value] = "${\(name)}"
            let encoded = URLQuery.encode(value)
            if encoded != value { placeholders[encoded] = "${\(name)@url}" }
        }
    }

    /// `text` with every secret replaced by its variable's placeholder (`***` when unknown), so
    /// that text kept for later, such as a queued outbox URL, can be restored by ``unseal(_:)``
    /// in a run that has the same variables, without the secret ever being stored.
    public func seal(_ text: String) -> String {
        guard !secrets.isEmpty else { return text }
        var result = text
        for secret in secrets where result.contains(secret) {
            result = result.replacingOccurrences(of: secret, with: placeholders[secret] ?? "***")
        }
        return result
    }

    /// `text` with the placeholders of ``seal(_:)`` replaced by this redactor's secrets.
    public func unseal(_ text: String) -> String {
        guard text.contains("${") else { return text }
        var result = text
        for (secret, placeholder) in placeholders where result.contains(placeholder) {
            result = result.replacingOccurrences(of: placeholder, with: secret)
        }
        return result
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
    public func merging(_ other: Redactor) -> Redactor {
        var merged = Redactor(secrets: secrets + other.secrets)
        // The variables' placeholders are kept, so sealed text can still be unsealed.
        merged.placeholders = placeholders.merging(other.placeholders) { first, _ in first }
        return merged
    }
}

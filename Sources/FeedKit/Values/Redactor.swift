import Foundation
import Synchronization

/// Replaces secrets (values that came from `${VAR}` in feeds.yaml) with `***`.
///
/// Every string that leaves the engine, error messages, reports, `_runs`, cache URLs and
/// recorded fixtures, goes through a redactor. The percent-encoded form of each secret is
/// replaced too, since secrets often travel in query strings.
///
/// Secrets handed out while feeds run (the access and refresh tokens of an OAuth2 token
/// endpoint) are added with ``learn(_:)``: every redactor of the process hides them from then on.
public struct Redactor: Sendable, Hashable {
    /// The secrets this redactor was made with, longest first.
    private var configured: [String]
    /// Every secret hidden: those learned while running (``learn(_:)``), then the configured ones.
    public var secrets: [String] {
        let learned = LearnedSecrets.shared.list
        return learned.isEmpty ? configured : learned + configured
    }
    /// The placeholder of each secret (and of its percent-encoded form) whose variable is known:
    /// `${NAME}`, or `${NAME@url}` for the encoded form when it differs.
    public private(set) var placeholders: [String: String] = [:]

    /// A redactor for `secrets`, each also in its percent-encoded form; secrets shorter than 3 characters are ignored.
    public init(secrets: some Sequence<String> = []) {
        var all = Set<String>()
        for secret in secrets where secret.count >= 3 {
            all.insert(secret)
            all.insert(URLQuery.encode(secret))
        }
        // Longest first, so a secret that contains another is replaced whole.
        self.configured = all.sorted { $0.count != $1.count ? $0.count > $1.count : $0 < $1 }
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
        let secrets = secrets
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
        let secrets = secrets
        guard !secrets.isEmpty else { return text }
        var result = text
        for secret in secrets where result.contains(secret) {
            result = result.replacingOccurrences(of: secret, with: "***")
        }
        return result
    }

    /// Whether `text` contains any secret.
    public func leaks(_ text: String) -> Bool { search.found(in: text) }

    /// A search for every secret hidden now, for looking through many texts.
    package var search: SecretSearch { SecretSearch(secrets) }

    /// Hides `secret` (and its percent-encoded form) in every redactor of the process from now
    /// on: for credentials a feed obtains while it runs, such as OAuth2 tokens, which no config
    /// value names. Values shorter than 3 characters are ignored, as in ``init(secrets:)``.
    public static func learn(_ secret: String) {
        guard secret.count >= 3 else { return }
        LearnedSecrets.shared.add(secret)
    }

    /// A redactor that hides the secrets of both.
    public func merging(_ other: Redactor) -> Redactor {
        var merged = Redactor(secrets: configured + other.configured)
        // The variables' placeholders are kept, so sealed text can still be unsealed.
        merged.placeholders = placeholders.merging(other.placeholders) { first, _ in first }
        return merged
    }
}

/// The secrets ``Redactor/learn(_:)`` added, process-wide, longest first. Bounded: the oldest
/// are forgotten past ``limit`` (a worker renewing tokens for weeks), by which time they have
/// long expired.
private final class LearnedSecrets: Sendable {
    static let shared = LearnedSecrets()
    static let limit = 512

    private struct Entries {
        /// In the order learned, for forgetting the oldest.
        var order: [String] = []
        /// Longest first, as redaction needs them.
        var sorted: [String] = []
    }

    private let entries = Mutex(Entries())

    var list: [String] { entries.withLock { $0.sorted } }

    func add(_ secret: String) {
        let forms = Set([secret, URLQuery.encode(secret)])
        entries.withLock { entries in
            let new = forms.filter { !entries.order.contains($0) }
            guard !new.isEmpty else { return }
            entries.order += new.sorted()
            if entries.order.count > Self.limit { entries.order.removeFirst(entries.order.count - Self.limit) }
            entries.sorted = entries.order.sorted { $0.count != $1.count ? $0.count > $1.count : $0 < $1 }
        }
    }
}

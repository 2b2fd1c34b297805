import FeedEngine
import FeedKit

/// The environment a fixture replay loads its config with.
///
/// Recorded fixtures hold `***` where a secret was, so a replay needs no real secret: every
/// `${VAR}` the config refers to without a default and that the environment lacks is set to
/// `***`. The placeholder is a secret like any `${VAR}` value, so requests are redacted to the
/// same `***` URLs the recording holds; a real value, when set, is redacted to them as well.
public enum FixtureEnvironment {
    /// The value given to unset variables.
    public static let placeholder = "***"

    /// `environment` plus the placeholder for each `${VAR}` in `yaml` that it does not set.
    public static func environment(for yaml: String, base environment: [String: String]) -> [String: String] {
        var result = environment
        for name in variables(in: yaml) where result[name] == nil {
            result[name] = placeholder
        }
        return result
    }

    /// The names of the `${VAR}` references without a `:-default`, skipping escaped `$${`.
    static func variables(in text: String) -> [String] {
        var names: [String] = []
        var rest = Substring(text)
        while let start = rest.range(of: "${") {
            let escaped = start.lowerBound > rest.startIndex && rest[rest.index(before: start.lowerBound)] == "$"
            rest = rest[start.upperBound...]
            guard !escaped, let end = rest.firstIndex(of: "}") else { continue }
            let body = rest[..<end]
            if !body.contains(":-"), !body.isEmpty, body.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) {
                names.append(String(body))
            }
        }
        return names
    }
}

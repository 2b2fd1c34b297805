/// Where in feeds.yaml a `${VAR}` value may be a secret, for the messages of config problems:
/// a value used only elsewhere (`auth: {type: "${AUTH_TYPE}"}`) is shown in them, so that
/// `unknown auth type 'bearr'` says what is wrong. Everything else stays redacted, and at run
/// time every value from the environment is redacted as before.
///
/// A place may hold a secret when a key on its way is a URL (`url`, `*_url`, `store`), a
/// request's `headers`, `params` or `body`, or names a credential (token, secret, password,
/// key, value, user, client...); and a variable whose own name names one (`API_TOKEN`) is a
/// secret wherever it is used.
enum SecretPlaces {
    /// Words that make a key, or a variable's name, a place for secrets.
    private static let words = [
        "token", "secret", "password", "passwd", "pwd", "pass", "key", "value", "user", "client", "credential",
        "cookie", "signature", "session", "private", "dsn", "header", "param", "body", "store", "url",
        "cert", "salt", "hash", "sign", "bearer", "login", "account",
    ]

    /// Whether the value of `key`, and everything below it, may be a secret.
    static func mayHoldSecret(key: String) -> Bool {
        let lower = key.lowercased()
        return words.contains { lower.contains($0) }
    }

    /// Whether the variable `name` says that it holds a secret (`API_TOKEN`, `DB_PASSWORD`).
    static func mayHoldSecret(variable name: String) -> Bool { mayHoldSecret(key: name) }
}

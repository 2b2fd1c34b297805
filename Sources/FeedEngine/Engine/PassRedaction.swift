import FeedKit
import FeedStore
import Logging

/// The one place secrets are hidden in what leaves a pass: every error and note it ends with
/// (its ``RunOutcome``, which `_runs` keeps and its ``FeedReport`` is derived from, so
/// `feedwork run`, `--json` and the worker print it), the events' errors of its outbox, and
/// every line of its log.
///
/// Secrets are the values of `${VAR}` in feeds.yaml, those the feed's adapter names, and the
/// tokens an OAuth2 endpoint hands out while feeds run (``Redactor/learn(_:)``), hidden from the
/// moment they arrive.
///
/// What a pass keeps on its way, which never crosses this boundary, is hidden where it is
/// made: the response cache (sealed by ``EnginePassBackend``), records an API echoed a secret
/// into (``EchoedSecrets``), rejects (``FeedPass``), and the URLs and errors the fetcher hands
/// the adapter, which may keep them in `_state` (``StandardFetcher``); recorded fixtures are
/// redacted by their recorder.
struct PassRedaction: Sendable {
    /// The feed's secrets: the config's and those its adapter names.
    let redactor: Redactor

    init(config: Redactor, adapterSecrets: [String]) {
        redactor = adapterSecrets.isEmpty ? config : config.merging(Redactor(secrets: adapterSecrets))
    }

    /// `error`'s description, secrets hidden.
    func message(_ error: any Error) -> String {
        redactor.redact(String(describing: error))
    }

    /// `outcome` with secrets hidden in its error, notes and stale URLs.
    func outcome(_ outcome: RunOutcome) -> RunOutcome {
        var outcome = outcome
        outcome.error = outcome.error.map(redactor.redact)
        outcome.notes = outcome.notes.map(redactor.redact)
        outcome.staleURLs = outcome.staleURLs.map(redactor.redact)
        return outcome
    }

    /// `logger`, whose every line has its secrets hidden.
    func logger(_ logger: Logger) -> Logger {
        var logger = logger
        logger.handler = RedactingLogHandler(wrapping: logger.handler, redactor: redactor)
        return logger
    }
}

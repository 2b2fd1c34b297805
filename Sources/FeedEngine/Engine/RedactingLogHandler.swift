import FeedKit
import Logging

/// A log handler that hides secrets in each line, its message and metadata, before handing it
/// to the handler it wraps: how ``PassRedaction`` covers a pass's log, whoever writes the line
/// (the engine, the fetcher, an adapter through ``FeedPass/log(_:level:)``).
///
/// Level and metadata are the wrapped handler's, so a logger keeps its level and its `feed`
/// metadata when it is wrapped.
struct RedactingLogHandler: LogHandler {
    private var wrapped: any LogHandler
    private let redactor: Redactor

    init(wrapping wrapped: any LogHandler, redactor: Redactor) {
        self.wrapped = wrapped
        self.redactor = redactor
    }

    func log(event: LogEvent) {
        var event = event
        event.message = "\(redactor.redact(event.message.description))"
        event.metadata = event.metadata?.mapValues(redacted)
        wrapped.log(event: event)
    }

    private func redacted(_ value: Logger.MetadataValue) -> Logger.MetadataValue {
        switch value {
        case .string(let text): .string(redactor.redact(text))
        case .stringConvertible(let item): .string(redactor.redact(item.description))
        case .array(let items): .array(items.map(redacted))
        case .dictionary(let items): .dictionary(items.mapValues(redacted))
        }
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { wrapped[metadataKey: key] }
        set { wrapped[metadataKey: key] = newValue }
    }

    var metadata: Logger.Metadata {
        get { wrapped.metadata }
        set { wrapped.metadata = newValue }
    }

    var metadataProvider: Logger.MetadataProvider? {
        get { wrapped.metadataProvider }
        set { wrapped.metadataProvider = newValue }
    }

    var logLevel: Logger.Level {
        get { wrapped.logLevel }
        set { wrapped.logLevel = newValue }
    }
}

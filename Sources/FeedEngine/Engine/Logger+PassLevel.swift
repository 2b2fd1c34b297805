import FeedKit
import Logging

extension Logger {
    /// Writes `text` at the level of an adapter's ``FeedPass/log(_:level:)`` line.
    func log(_ text: String, at level: FeedPass.LogLevel) {
        let message: Logger.Message = "\(text)"
        switch level {
        case .debug: debug(message)
        case .info: info(message)
        case .notice: notice(message)
        case .warning: warning(message)
        case .error: error(message)
        }
    }
}

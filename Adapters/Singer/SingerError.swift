import FeedKit

/// Why a singer feed's pass failed: names the feed, the tap's command (secrets as `***`), the
/// line of its output at fault when there is one, and the reason. The pass is rolled back, so
/// nothing the tap delivered before the failure is kept.
///
/// `feed 'github': tap 'tap-github --config tap.json': stdout line 12: a RECORD of stream
/// 'issues' came before its SCHEMA`
public struct SingerError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, without the feed and command around it.
    public enum Reason: Error, Sendable, Equatable, CustomStringConvertible {
        /// A line that is not a Singer message (not JSON, not an object, no `type`, or missing
        /// what its type needs).
        case malformedLine(String)
        /// A message Feedwork cannot act on, such as `BATCH`.
        case unsupported(String)
        /// A RECORD of a stream whose SCHEMA has not come yet.
        case recordBeforeSchema(stream: String)
        /// A SCHEMA that cannot become an entity (a key property it does not define, ...).
        case badSchema(stream: String, message: String)
        /// The tap announced a stream's schema again, differently, after its records began.
        case schemaChanged(stream: String)
        /// A line longer than the limit.
        case lineTooLong(limit: Int)
        /// The command could not be started.
        case launchFailed(String)
        /// The tap ended with a non-zero status; `stderr` holds its last lines.
        case exited(status: Int32, stderr: [String])
        /// The tap was ended by a signal it was not sent by Feedwork.
        case killed(signal: Int32, stderr: [String])
        /// The tap ran past the feed's `timeout` and was stopped.
        case timedOut(FeedDuration, stderr: [String])
        /// The tap itself had ended (how, in the second value), but a process it started still
        /// held its standard output open at the feed's `timeout`, and was stopped.
        case outputHeldOpen(FeedDuration, TapEnd, stderr: [String])
        /// A file the tap needs could not be written or read (config, state, catalog).
        case file(String)

        public var description: String {
            switch self {
            case .malformedLine(let message): "malformed line: \(message)"
            case .unsupported(let message): message
            case .recordBeforeSchema(let stream): "a RECORD of stream '\(stream)' came before its SCHEMA"
            case .badSchema(let stream, let message): "the SCHEMA of stream '\(stream)': \(message)"
            case .schemaChanged(let stream):
                "stream '\(stream)' announced a different SCHEMA after its first one; Feedwork needs one schema per stream in a pass"
            case .lineTooLong(let limit): "a line longer than \(limit) bytes"
            case .launchFailed(let message): "could not start: \(message)"
            case .exited(let status, let stderr): "exited with status \(status)" + Self.tail(stderr)
            case .killed(let signal, let stderr): "was killed by signal \(signal)" + Self.tail(stderr)
            case .timedOut(let limit, let stderr):
                "ran longer than its timeout (\(limit)) and was stopped" + Self.tail(stderr)
            case .outputHeldOpen(let limit, let end, let stderr):
                "\(end), but a process it started held its standard output open past its timeout (\(limit)) and was stopped"
                    + Self.tail(stderr)
            case .file(let message): message
            }
        }

        /// The last lines of standard error, as the end of a message.
        private static func tail(_ lines: [String]) -> String {
            lines.isEmpty ? "" : "; its last lines on stderr:\n  " + lines.joined(separator: "\n  ")
        }
    }

    /// How a tap process ended by itself.
    public enum TapEnd: Sendable, Equatable, CustomStringConvertible {
        /// It exited with this status.
        case exited(Int32)
        /// A signal ended it.
        case killed(signal: Int32)

        public var description: String {
            switch self {
            case .exited(let status): "exited with status \(status)"
            case .killed(let signal): "was killed by signal \(signal)"
            }
        }
    }

    /// The feed's name.
    public var feed: String
    /// The tap's command line, secrets replaced by `***`.
    public var command: String
    /// The 1-based line of the tap's standard output at fault, when one is.
    public var line: Int?
    public var reason: Reason

    public init(feed: String, command: String, line: Int? = nil, reason: Reason) {
        self.feed = feed
        self.command = command
        self.line = line
        self.reason = reason
    }

    public var description: String {
        "feed '\(feed)': tap '\(command)'" + (line.map { ": stdout line \($0)" } ?? "") + ": \(reason)"
    }
}

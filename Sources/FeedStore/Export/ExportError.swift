import FeedKit

/// Why an export could not run: a request that names something the store does not have
/// (a usage error) or a failure while reading the store or writing the output.
public struct ExportError: Error, Sendable, CustomStringConvertible {
    public enum Kind: Sendable {
        /// The request is wrong (unknown entity or field, malformed filter); the CLI exits with 2.
        case usage
        /// The request names an entity or feed the store does not have; a usage error, which a
        /// server answers with 404.
        case unknownName
        /// Reading the store or writing the output failed; the CLI exits with 1.
        case runtime
    }

    public var kind: Kind
    public var message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    package static func usage(_ message: String) -> ExportError { ExportError(.usage, message) }
    package static func runtime(_ message: String) -> ExportError { ExportError(.runtime, message) }
    package static func unknownName(_ message: String) -> ExportError { ExportError(.unknownName, message) }

    public var isUsageError: Bool { kind != .runtime }

    public var description: String { message }
}

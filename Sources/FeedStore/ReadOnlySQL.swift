import Dispatch
import FeedKit

/// One statement a person wrote, to run read-only on the store (`feedwork serve`'s SQL page
/// and `/api/sql`): a `SELECT` or `WITH` statement with named parameters (`:name`), their
/// values as text, and the limits it runs under.
public struct ReadOnlySQLRequest: Sendable {
    /// How long a statement runs before it is stopped, unless its reader says otherwise (serve's
    /// `--sql-time-limit`); `feedwork mcp` runs every statement under it.
    public static let defaultTimeLimit = Duration.seconds(5)
    /// The most rows a statement returns, unless its reader says otherwise (serve's
    /// `--sql-row-limit`); `feedwork mcp` runs every statement under it.
    public static let defaultRowLimit = 1000
    /// The most bytes of values a result holds (8 MiB): the rows stop before the one that would
    /// pass it, and the result says so.
    public static let defaultByteLimit = 8 << 20
    /// The most bytes of one value (256 KiB): a longer text is cut there, and a blob's hex at
    /// half as many bytes, followed by ``ReadOnlySQLBudget/marker(ofBytes:)``.
    public static let defaultValueLimit = 256 << 10

    /// The statement as written.
    public var statement: String
    /// The values of its parameters, by name without the colon; the database converts each
    /// text where the statement compares it with a typed column.
    public var parameters: [String: String]
    /// How long the statement may run before it is stopped.
    public var timeLimit: Duration
    /// The most rows returned; ``ReadOnlySQLResult/truncated`` says when there were more.
    public var rowLimit: Int
    /// The most bytes of values in the result.
    public var byteLimit: Int
    /// The most bytes of one value.
    public var valueLimit: Int
    /// When the answer must be done: the time limit counts from the request's making, so
    /// opening the connection and reading the rows are inside it, not only the statement.
    public var deadline: ContinuousClock.Instant

    public init(
        statement: String, parameters: [String: String], timeLimit: Duration, rowLimit: Int,
        byteLimit: Int = Self.defaultByteLimit, valueLimit: Int = Self.defaultValueLimit
    ) {
        self.statement = statement
        self.parameters = parameters
        self.timeLimit = timeLimit
        self.rowLimit = rowLimit
        self.byteLimit = byteLimit
        self.valueLimit = max(64, valueLimit)
        self.deadline = ContinuousClock.now + timeLimit
    }

    /// A time limit as messages and pages say it: `5 s`, `250 ms`.
    public static func text(ofLimit limit: Duration) -> String { ReadOnlySQLPolicy.text(limit) }
}

/// The rows a read-only statement returned, with its columns in the statement's order (two
/// columns may share a name).
public struct ReadOnlySQLResult: Sendable, Equatable {
    public var columns: [String]
    public var rows: [[FieldValue]]
    /// Whether the result is not all of the statement's: more rows than the row limit or the
    /// byte limit let in, or a value cut at the value limit.
    public var truncated: Bool
    /// Why ``truncated``, in words (`nil` when the result is whole).
    public var truncatedReason: String?

    public init(columns: [String], rows: [[FieldValue]], truncated: Bool, truncatedReason: String? = nil) {
        self.columns = columns
        self.rows = rows
        self.truncated = truncated
        self.truncatedReason = truncatedReason
    }
}

/// Why a read-only statement did not run or was stopped: every case is the statement's fault,
/// never the store's, and the message says what to change.
public struct ReadOnlySQLError: Error, Sendable, CustomStringConvertible {
    public enum Kind: Sendable {
        /// Not one `SELECT`/`WITH` statement, or a parameter missing or misspelt.
        case statement
        /// The statement names a table or function that is not open to SQL.
        case refused
        /// The database refused it: a syntax error, an unknown column, a write.
        case database
        /// It ran past the time limit.
        case timeLimit
    }

    public var kind: Kind
    public var message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }

    package static func timeLimit(_ limit: Duration) -> ReadOnlySQLError {
        ReadOnlySQLError(
            .timeLimit,
            "the statement ran longer than the time limit of \(ReadOnlySQLPolicy.text(limit)) and was stopped"
                + " (serve's --sql-time-limit)")
    }
}

/// Runs a person's statement, which blocks (up to its time limit), on a thread of Dispatch's,
/// never on Swift's cooperative pool or a store's reader threads.
package enum ReadOnlySQLThread {
    package static func run(_ body: @escaping @Sendable () throws(ReadOnlySQLError) -> ReadOnlySQLResult)
        async throws(ReadOnlySQLError) -> ReadOnlySQLResult
    {
        let result = await withCheckedContinuation {
            (continuation: CheckedContinuation<Result<ReadOnlySQLResult, ReadOnlySQLError>, Never>) in
            DispatchQueue.global().async {
                do throws(ReadOnlySQLError) {
                    continuation.resume(returning: .success(try body()))
                } catch {
                    continuation.resume(returning: .failure(error))
                }
            }
        }
        return try result.get()
    }
}

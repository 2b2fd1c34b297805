/// Every ``OptionError`` an adapter found in a feed's options, so a user sees all of them in one
/// `feedwork validate`.
///
/// Collect with ``check(_:)`` around each independent check, then ``throwIfAny()``:
///
/// ```swift
/// var errors = OptionError.List()
/// let mode = errors.check { () throws(OptionError) in try parseMode(options.write) }
/// let limit = errors.check { () throws(OptionError) in try checkLimit(options.limit) }
/// try errors.throwIfAny()
/// ```
extension OptionError {
    /// Several independent ``OptionError``s, thrown together so a user fixes them in one go.
    public struct List: Error, Sendable, CustomStringConvertible {
        /// The errors noted so far, in the order the checks ran.
        public private(set) var errors: [OptionError] = []

        /// An empty list, to collect errors into.
        public init() {}

        /// The result of `body`, or `nil` after noting the error it threw.
        public mutating func check<T>(_ body: () throws(OptionError) -> T) -> T? {
            do {
                return try body()
            } catch {
                errors.append(error)
                return nil
            }
        }

        /// The result of `body`, or `nil` after noting the errors it threw.
        public mutating func check<T>(_ body: () throws(OptionError.List) -> T) -> T? {
            do {
                return try body()
            } catch {
                errors += error.errors
                return nil
            }
        }

        /// Notes `error`.
        public mutating func append(_ error: OptionError) { errors.append(error) }

        /// Whether an error was noted.
        public var isEmpty: Bool { errors.isEmpty }

        /// Throws these errors when there is any.
        public func throwIfAny() throws(OptionError.List) {
            if !errors.isEmpty { throw self }
        }

        /// Each error's message on a line of its own.
        public var description: String { errors.map(\.message).joined(separator: "\n") }
    }
}

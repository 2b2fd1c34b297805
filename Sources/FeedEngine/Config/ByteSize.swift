import FeedKit
import Foundation

/// A size in bytes written as a number with an optional unit: `1048576`, `512KB`, `50MB`, `1GB`
/// (units are powers of 1024).
public struct ByteSize: Sendable, Hashable, Decodable {
    public var bytes: Int

    public init(bytes: Int) { self.bytes = bytes }

    public init?(parsing text: String) {
        let trimmed = text.trimmingSpaces.uppercased()
        let digits = trimmed.prefix { $0.isNumber }
        guard let number = Int(digits) else { return nil }
        let unit = trimmed.dropFirst(digits.count).trimmingSpaces
        let factors = ["": 1, "B": 1, "KB": 1024, "K": 1024, "MB": 1 << 20, "M": 1 << 20, "GB": 1 << 30, "G": 1 << 30]
        guard let factor = factors[unit] else { return nil }
        let (bytes, overflow) = number.multipliedReportingOverflow(by: factor)
        guard !overflow else { return nil }
        self.bytes = bytes
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let size = ByteSize(parsing: text) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "'\(text)' is not a size (use e.g. 512KB, 50MB)")
        }
        self = size
    }
}

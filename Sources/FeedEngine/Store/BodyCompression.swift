import CZlib
import FeedKit
import Foundation

/// zlib compression of the response bodies kept in `_http_cache`.
///
/// JSON shrinks about tenfold, and the cache is written inside each feed's transaction by the
/// single writer thread: compressing on the feed's own task keeps that thread's work close to
/// the records themselves.
enum BodyCompression {
    /// `body` deflated at the fastest level, or `nil` when compressing does not make it smaller.
    static func compress(_ body: Data) -> Data? {
        guard body.count >= 256 else { return nil }
        var bound = compressBound(uLong(body.count))
        var output = Data(count: Int(bound))
        let status = output.withUnsafeMutableBytes { (target: UnsafeMutableRawBufferPointer) -> Int32 in
            body.withUnsafeBytes { (source: UnsafeRawBufferPointer) -> Int32 in
                compress2(
                    target.bindMemory(to: Bytef.self).baseAddress, &bound,
                    source.bindMemory(to: Bytef.self).baseAddress, uLong(body.count), 1)
            }
        }
        guard status == Z_OK, Int(bound) < body.count else { return nil }
        output.count = Int(bound)
        return output
    }

    /// The body of `size` bytes that `compressed` holds, or `nil` when it is damaged.
    static func decompress(_ compressed: Data, size: Int) -> Data? {
        var length = uLongf(size)
        var output = Data(count: size)
        let status = output.withUnsafeMutableBytes { (target: UnsafeMutableRawBufferPointer) -> Int32 in
            compressed.withUnsafeBytes { (source: UnsafeRawBufferPointer) -> Int32 in
                uncompress(
                    target.bindMemory(to: Bytef.self).baseAddress, &length,
                    source.bindMemory(to: Bytef.self).baseAddress, uLong(compressed.count))
            }
        }
        guard status == Z_OK, Int(length) == size else { return nil }
        return output
    }
}

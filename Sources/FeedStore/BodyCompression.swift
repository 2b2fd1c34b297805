import CZlib
import CZstd
import FeedKit
import Foundation

/// Compression of the response bodies kept in `_http_cache_body`: Zstandard at its fastest
/// level.
///
/// Bodies are compressed on the feed's own task, off the store's writer thread. Zstandard took
/// 263 M instructions to compress W1's 100 pages (13.8 MB of JSON) to 0.45 MB where zlib at its
/// fastest level took 664 M for 1.66 MB (callgrind, `zstd -1` against `gzip -1`), and it reads
/// back in 133 M against 233 M. Bodies an earlier Feedwork kept with zlib still read: a
/// Zstandard frame starts with its magic number, which no zlib stream can (its first two bytes
/// are a multiple of 31).
package enum BodyCompression {
    /// `body` compressed, or `nil` when compressing does not make it smaller.
    package static func compress(_ body: Data) -> Data? {
        guard body.count >= 256 else { return nil }
        var output = Data(count: ZSTD_compressBound(body.count))
        let written = output.withUnsafeMutableBytes { (target: UnsafeMutableRawBufferPointer) -> Int in
            body.withUnsafeBytes { (source: UnsafeRawBufferPointer) -> Int in
                ZSTD_compress(target.baseAddress, target.count, source.baseAddress, source.count, 1)
            }
        }
        guard ZSTD_isError(written) == 0, written < body.count else { return nil }
        output.count = written
        return output
    }

    /// The body of `size` bytes that `compressed` holds, or `nil` when it is damaged.
    package static func decompress(_ compressed: Data, size: Int) -> Data? {
        var output = Data(count: size)
        let isZstandard = compressed.prefix(4).elementsEqual([0x28, 0xB5, 0x2F, 0xFD])
        let produced = output.withUnsafeMutableBytes { (target: UnsafeMutableRawBufferPointer) -> Int? in
            compressed.withUnsafeBytes { (source: UnsafeRawBufferPointer) -> Int? in
                if isZstandard {
                    let count = ZSTD_decompress(target.baseAddress, target.count, source.baseAddress, source.count)
                    return ZSTD_isError(count) == 0 ? count : nil
                }
                var length = uLongf(size)
                let status = uncompress(
                    target.bindMemory(to: Bytef.self).baseAddress, &length,
                    source.bindMemory(to: Bytef.self).baseAddress, uLong(source.count))
                return status == Z_OK ? Int(length) : nil
            }
        }
        guard produced == size else { return nil }
        return output
    }
}

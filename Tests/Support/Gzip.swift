import Foundation

/// A minimal gzip encoder (RFC 1952) using uncompressed deflate blocks: real gzip that any
/// decoder accepts, without linking zlib. Enough for testing that clients decode bodies.
enum Gzip {
    static func encode(_ data: Data) -> Data {
        var out = Data([0x1f, 0x8b, 0x08, 0x00, 0, 0, 0, 0, 0x00, 0xff])
        let bytes = [UInt8](data)
        var offset = 0
        repeat {
            let length = min(65_535, bytes.count - offset)
            let isLast = offset + length == bytes.count
            out.append(isLast ? 1 : 0)  // BFINAL, BTYPE 00 (stored)
            out.append(contentsOf: littleEndian(UInt16(length)))
            out.append(contentsOf: littleEndian(~UInt16(length)))
            out.append(contentsOf: bytes[offset..<offset + length])
            offset += length
        } while offset < bytes.count
        out.append(contentsOf: littleEndian(crc32(bytes)))
        out.append(contentsOf: littleEndian(UInt32(truncatingIfNeeded: bytes.count)))
        return out
    }

    private static func littleEndian<T: FixedWidthInteger>(_ value: T) -> [UInt8] {
        (0..<T.bitWidth / 8).map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) }
    }

    private static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xffff_ffff
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xedb8_8320 : crc >> 1 }
        }
        return ~crc
    }
}

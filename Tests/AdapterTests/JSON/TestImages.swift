import Foundation

/// Real image bytes made in the tests: PNGs a browser decodes (stored deflate blocks, real
/// CRCs), and JPEG headers with a frame size.
enum TestImages {
    /// A `width` x `height` RGB PNG of one colour.
    static func png(width: Int, height: Int, red: UInt8, green: UInt8, blue: UInt8) -> Data {
        var raw = Data()
        for _ in 0..<height {
            raw.append(0)  // filter: none
            for _ in 0..<width { raw.append(contentsOf: [red, green, blue]) }
        }
        var header = Data()
        header.append(contentsOf: bigEndian(UInt32(width)) + bigEndian(UInt32(height)))
        header.append(contentsOf: [8, 2, 0, 0, 0])
        var png = Data([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
        png.append(chunk("IHDR", header))
        png.append(chunk("IDAT", zlibStored(raw)))
        png.append(chunk("IEND", Data()))
        return png
    }

    /// A baseline JPEG's header (SOI, APP0 JFIF, SOF0 of `width` x `height`) and `count` bytes
    /// after it, then EOI.
    static func jpeg(width: Int, height: Int, count: Int = 2000) -> Data {
        var jpeg = Data([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10])
        jpeg.append(contentsOf: Array("JFIF".utf8) + [0, 1, 1, 0, 0, 1, 0, 1, 0, 0])
        jpeg.append(contentsOf: [0xff, 0xc0, 0x00, 0x11, 0x08])
        jpeg.append(contentsOf: bigEndian16(height) + bigEndian16(width))
        jpeg.append(contentsOf: [3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1])
        jpeg.append(contentsOf: (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        jpeg.append(contentsOf: [0xff, 0xd9])
        return jpeg
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8((value >> 16) & 0xff), UInt8((value >> 8) & 0xff), UInt8(value & 0xff)]
    }

    private static func bigEndian16(_ value: Int) -> [UInt8] { [UInt8(value >> 8), UInt8(value & 0xff)] }

    private static func chunk(_ type: String, _ data: Data) -> Data {
        let body = Data(type.utf8) + data
        return Data(bigEndian(UInt32(data.count))) + body + Data(bigEndian(crc32(body)))
    }

    /// `data` as a zlib stream of stored (uncompressed) deflate blocks.
    private static func zlibStored(_ data: Data) -> Data {
        var out = Data([0x78, 0x01])
        let bytes = [UInt8](data)
        var offset = 0
        repeat {
            let size = min(65_535, bytes.count - offset)
            let last: UInt8 = offset + size == bytes.count ? 1 : 0
            out.append(last)
            out.append(contentsOf: [
                UInt8(size & 0xff), UInt8(size >> 8), UInt8(~size & 0xff), UInt8((~size >> 8) & 0xff),
            ])
            out.append(contentsOf: bytes[offset..<offset + size])
            offset += size
        } while offset < bytes.count
        var a: UInt32 = 1
        var b: UInt32 = 0
        for byte in bytes {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        out.append(contentsOf: bigEndian(b << 16 | a))
        return out
    }

    private static func crc32(_ data: Data) -> UInt32 {
        var crc: UInt32 = 0xffff_ffff
        for byte in data {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xedb8_8320 : crc >> 1 }
        }
        return ~crc
    }
}

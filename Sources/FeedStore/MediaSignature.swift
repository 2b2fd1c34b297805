import Foundation

/// What an image's own bytes say it is: its type by its signature (never by the server's
/// `Content-Type`) and, when its header gives them cheaply, its width and height.
///
/// Only JPEG, PNG, GIF and WebP are images here. SVG is not (it is a document that can carry
/// script), nor is HTML served as `image/png`: both are refused by ``init(of:)``.
public struct MediaSignature: Sendable, Hashable {
    /// An image format Feedwork mirrors.
    public enum Format: String, Sendable, CaseIterable {
        case jpeg, png, gif, webp

        /// The media type served for it (`image/jpeg`...).
        public var mediaType: String { "image/\(rawValue)" }
        /// The file extension `export --media` gives it.
        public var fileExtension: String { self == .jpeg ? "jpg" : rawValue }

        /// The format of a stored media type, or `nil`.
        public init?(mediaType: String) {
            guard mediaType.hasPrefix("image/") else { return nil }
            self.init(rawValue: String(mediaType.dropFirst(6)))
        }
    }

    public var format: Format
    public var width: Int?
    public var height: Int?

    /// Reads `bytes`' signature; `nil` when they are not a JPEG, PNG, GIF or WebP image.
    public init?(of bytes: Data) {
        let b = [UInt8](bytes.prefix(64 * 1024))
        func be16(_ at: Int) -> Int? { at + 2 <= b.count ? Int(b[at]) << 8 | Int(b[at + 1]) : nil }
        func le16(_ at: Int) -> Int? { at + 2 <= b.count ? Int(b[at + 1]) << 8 | Int(b[at]) : nil }
        func be32(_ at: Int) -> Int? { at + 4 <= b.count ? (be16(at)! << 16) | be16(at + 2)! : nil }
        func starts(_ prefix: [UInt8], at: Int = 0) -> Bool {
            at + prefix.count <= b.count && Array(b[at..<at + prefix.count]) == prefix
        }
        if starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]) {
            format = .png
            if starts(Array("IHDR".utf8), at: 12) { (width, height) = (be32(16), be32(20)) }
        } else if starts([0xff, 0xd8, 0xff]) {
            format = .jpeg
            (width, height) = Self.jpegSize(b)
        } else if starts(Array("GIF87a".utf8)) || starts(Array("GIF89a".utf8)) {
            format = .gif
            (width, height) = (le16(6), le16(8))
        } else if starts(Array("RIFF".utf8)) && starts(Array("WEBP".utf8), at: 8) {
            format = .webp
            (width, height) = Self.webpSize(b)
        } else {
            return nil
        }
    }

    /// The size in a JPEG's first start-of-frame segment, if the first 64 KB hold it.
    private static func jpegSize(_ b: [UInt8]) -> (Int?, Int?) {
        var at = 2
        while at + 9 < b.count, b[at] == 0xff {
            let marker = b[at + 1]
            let length = Int(b[at + 2]) << 8 | Int(b[at + 3])
            // SOF0...SOF15 but DHT (c4), JPG (c8) and DAC (cc).
            if (0xc0...0xcf).contains(marker), ![0xc4, 0xc8, 0xcc].contains(marker) {
                let height = Int(b[at + 5]) << 8 | Int(b[at + 6])
                let width = Int(b[at + 7]) << 8 | Int(b[at + 8])
                return (width, height)
            }
            guard length >= 2 else { break }
            at += 2 + length
        }
        return (nil, nil)
    }

    /// The canvas of a WebP's first chunk: lossy (`VP8 `), lossless (`VP8L`) or extended (`VP8X`).
    private static func webpSize(_ b: [UInt8]) -> (Int?, Int?) {
        guard b.count >= 30 else { return (nil, nil) }
        let chunk = String(decoding: b[12..<16], as: UTF8.self)
        func le(_ at: Int, _ count: Int) -> Int { (0..<count).reduce(0) { $0 | Int(b[at + $1]) << (8 * $1) } }
        switch chunk {
        case "VP8 ": return (le(26, 2) & 0x3fff, le(28, 2) & 0x3fff)
        case "VP8L":
            let bits = le(21, 4)
            return ((bits & 0x3fff) + 1, ((bits >> 14) & 0x3fff) + 1)
        case "VP8X": return (le(24, 3) + 1, le(27, 3) + 1)
        default: return (nil, nil)
        }
    }
}

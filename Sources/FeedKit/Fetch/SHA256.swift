import Foundation

/// SHA-256 (FIPS 180-4), small and dependency-free, for cache keys that must not reveal the
/// secrets in the URLs they are made from, and for adapters that derive a key from values (the
/// singer adapter's records without a key).
public enum SHA256 {
    private static let roundConstants: [UInt32] = [
        0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
        0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
        0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
        0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
        0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
        0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
        0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
        0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
    ]

    /// The eight words of the hash state.
    private typealias Words = (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32)

    /// The digest of `data` as 64 lowercase hex digits.
    public static func hexDigest(_ data: some Sequence<UInt8>) -> String {
        let digest = digest(data)
        return String(unsafeUninitializedCapacity: 64) { text in
            let digits: StaticString = "0123456789abcdef"
            for (index, byte) in digest.enumerated() {
                text[2 * index] = digits.utf8Start[Int(byte >> 4)]
                text[2 * index + 1] = digits.utf8Start[Int(byte & 0x0f)]
            }
            return 64
        }
    }

    /// The 32-byte digest of `data`.
    public static func digest(_ data: some Sequence<UInt8>) -> [UInt8] {
        data.withContiguousStorageIfAvailable { digest(of: UnsafeRawBufferPointer($0)) }
            ?? Array(data).withUnsafeBytes { digest(of: $0) }
    }

    /// The digest of `message`, hashed where it lies: only the last one or two blocks, which
    /// carry the padding and the message's length, are copied.
    private static func digest(of message: UnsafeRawBufferPointer) -> [UInt8] {
        var hash: Words = (
            0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19
        )
        let fullBlocks = message.count / 64
        if let base = message.baseAddress {
            for block in 0..<fullBlocks {
                compress(UnsafeRawBufferPointer(start: base + block * 64, count: 64), into: &hash)
            }
        }
        // The rest of the message, the 0x80 byte, zeros, and the length in bits (big-endian)
        // fill one block, or two when fewer than 9 bytes are left in the first.
        let rest = message.count - fullBlocks * 64
        let tailLength = rest < 56 ? 64 : 128
        withUnsafeTemporaryAllocation(byteCount: 128, alignment: 8) { tail in
            tail.initializeMemory(as: UInt8.self, repeating: 0)
            if rest > 0, let base = message.baseAddress {
                tail.copyMemory(from: UnsafeRawBufferPointer(start: base + fullBlocks * 64, count: rest))
            }
            tail[rest] = 0x80
            tail.storeBytes(
                of: (UInt64(message.count) &* 8).bigEndian, toByteOffset: tailLength - 8, as: UInt64.self)
            for offset in stride(from: 0, to: tailLength, by: 64) {
                compress(UnsafeRawBufferPointer(rebasing: tail[offset..<offset + 64]), into: &hash)
            }
        }
        var digest = [UInt8](repeating: 0, count: 32)
        withUnsafeBytes(of: &hash) { words in
            for index in 0..<8 {
                let word = words.load(fromByteOffset: index * 4, as: UInt32.self)
                for byte in 0..<4 {
                    digest[index * 4 + byte] = UInt8(truncatingIfNeeded: word >> UInt32(24 - byte * 8))
                }
            }
        }
        return digest
    }

    /// Mixes one 64-byte block into `hash`.
    private static func compress(_ block: UnsafeRawBufferPointer, into hash: inout Words) {
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { words in
            for index in 0..<16 {
                words[index] = UInt32(bigEndian: block.loadUnaligned(fromByteOffset: index * 4, as: UInt32.self))
            }
            for index in 16..<64 {
                let s0 = rotate(words[index - 15], 7) ^ rotate(words[index - 15], 18) ^ (words[index - 15] >> 3)
                let s1 = rotate(words[index - 2], 17) ^ rotate(words[index - 2], 19) ^ (words[index - 2] >> 10)
                words[index] = words[index - 16] &+ s0 &+ words[index - 7] &+ s1
            }
            var (a, b, c, d, e, f, g, h) = hash
            roundConstants.withUnsafeBufferPointer { constants in
                for index in 0..<64 {
                    let s1 = rotate(e, 6) ^ rotate(e, 11) ^ rotate(e, 25)
                    let choice = (e & f) ^ (~e & g)
                    let temp1 = h &+ s1 &+ choice &+ constants[index] &+ words[index]
                    let s0 = rotate(a, 2) ^ rotate(a, 13) ^ rotate(a, 22)
                    let majority = (a & b) ^ (a & c) ^ (b & c)
                    let temp2 = s0 &+ majority
                    (h, g, f, e, d, c, b, a) = (g, f, e, d &+ temp1, c, b, a, temp1 &+ temp2)
                }
            }
            hash = (
                hash.0 &+ a, hash.1 &+ b, hash.2 &+ c, hash.3 &+ d, hash.4 &+ e, hash.5 &+ f, hash.6 &+ g, hash.7 &+ h
            )
        }
    }

    private static func rotate(_ value: UInt32, _ count: UInt32) -> UInt32 {
        (value >> count) | (value << (32 - count))
    }
}

import FeedKit

/// A scalable Bloom filter of the keys written so far in a pass.
///
/// When a feed's table holds none of its rows yet (its first pass) and has no primary key to
/// catch a repeated key (an entity that keeps history, in the SQLite driver's first pass), a key the
/// filter has not seen cannot be in the table, so the writer inserts it without looking it up
/// first; only the rare "maybe seen" answers (real duplicates, or false positives: under 1% for
/// each layer, a few percent over all layers) pay for a lookup.
/// Layers grow fourfold as keys arrive, so a small feed costs a few kilobytes and a million keys
/// about 3 MB.
package struct KeyFilter {
    /// A blocked Bloom filter: each key sets 3 bits within one 512-bit block (a cache line),
    /// so a probe costs one memory access, not three.
    private struct Layer {
        var words: [UInt64]
        let blockMask: UInt64
        let capacity: Int
        var count = 0

        /// - Parameter capacity: a power of two, at least 32.
        init(capacity: Int) {
            self.capacity = capacity
            // 16 bits a key: under 1% false positives at capacity.
            let blocks = capacity * 16 / 512
            blockMask = UInt64(blocks - 1)
            words = Array(repeating: 0, count: blocks * 8)
        }

        /// Where the bit taken from `hash` at `shift` lies: its word's index and mask.
        @inline(__always)
        private func bit(_ hash: UInt64, _ shift: UInt64) -> (word: Int, mask: UInt64) {
            let block = Int((hash >> 32) & blockMask) << 3
            let bit = (hash >> shift) & 511
            return (block + Int(bit >> 6), 1 << (bit & 63))
        }

        func contains(_ hash: UInt64) -> Bool {
            let (a, b, c) = (bit(hash, 0), bit(hash, 9), bit(hash, 18))
            return words[a.word] & a.mask != 0 && words[b.word] & b.mask != 0 && words[c.word] & c.mask != 0
        }

        mutating func insert(_ hash: UInt64) {
            let (a, b, c) = (bit(hash, 0), bit(hash, 9), bit(hash, 18))
            words[a.word] |= a.mask
            words[b.word] |= b.mask
            words[c.word] |= c.mask
            count += 1
        }
    }

    private var layers = [Layer(capacity: 4096)]

    /// Whether `hash` may have been inserted; `false` means it certainly was not.
    package func mightContain(_ hash: UInt64) -> Bool { layers.contains { $0.contains(hash) } }

    package mutating func insert(_ hash: UInt64) {
        if layers[layers.count - 1].count >= layers[layers.count - 1].capacity {
            layers.append(Layer(capacity: layers[layers.count - 1].capacity * 4))
        }
        layers[layers.count - 1].insert(hash)
    }

    /// A 64-bit hash of a key (and, for append mode, of the content hash).
    package static func hash(key: String, salt: Int64 = 0) -> UInt64 {
        var value: UInt64 = 0xcbf2_9ce4_8422_2325 ^ UInt64(bitPattern: salt)
        var key = key
        key.withUTF8 { bytes in
            for byte in bytes {
                value ^= UInt64(byte)
                value &*= 0x0000_0100_0000_01b3
            }
        }
        // Mix the bits so the probes of similar keys spread out.
        value ^= value >> 33
        value &*= 0xff51_afd7_ed55_8ccd
        value ^= value >> 33
        return value
    }

    package init() {}
}

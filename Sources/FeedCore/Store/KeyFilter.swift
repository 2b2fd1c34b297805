/// A scalable Bloom filter of the keys written so far in a pass.
///
/// When a feed's table holds none of its rows yet (its first pass), a key the filter has not
/// seen cannot be in the table, so the writer inserts it without looking it up first; only the
/// rare "maybe seen" answers (real duplicates, or about 0.5% false positives) pay for a lookup.
/// Layers grow fourfold as keys arrive, so a small feed costs a few kilobytes and a million keys
/// about 3 MB.
struct KeyFilter {
    private struct Layer {
        var bits: [UInt64]
        var capacity: Int
        var count = 0

        init(capacity: Int) {
            self.capacity = capacity
            // 16 bits a key and 3 probes: about 0.5% false positives at capacity.
            bits = Array(repeating: 0, count: capacity * 16 / 64)
        }

        func contains(_ hash: UInt64) -> Bool {
            let size = UInt64(bits.count * 64)
            let second = (hash >> 32) | 1
            for probe in 0..<3 as Range<UInt64> {
                let bit = (hash &+ probe &* second) % size
                if bits[Int(bit >> 6)] & (1 << (bit & 63)) == 0 { return false }
            }
            return true
        }

        mutating func insert(_ hash: UInt64) {
            let size = UInt64(bits.count * 64)
            let second = (hash >> 32) | 1
            for probe in 0..<3 as Range<UInt64> {
                let bit = (hash &+ probe &* second) % size
                bits[Int(bit >> 6)] |= 1 << (bit & 63)
            }
            count += 1
        }
    }

    private var layers = [Layer(capacity: 4096)]

    /// Whether `hash` may have been inserted; `false` means it certainly was not.
    func mightContain(_ hash: UInt64) -> Bool { layers.contains { $0.contains(hash) } }

    mutating func insert(_ hash: UInt64) {
        if layers[layers.count - 1].count >= layers[layers.count - 1].capacity {
            layers.append(Layer(capacity: layers[layers.count - 1].capacity * 4))
        }
        layers[layers.count - 1].insert(hash)
    }

    /// A 64-bit hash of a key (and, for append mode, of the content hash).
    static func hash(key: String, salt: Int64 = 0) -> UInt64 {
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
}
